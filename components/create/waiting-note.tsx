/** Why a queued task is not running yet (a backend out of service, a retry after a failure). */
export function WaitingNote({ note }: { note?: string | null }) {
  if (!note) return null
  return (
    <p role="status" data-testid="task-waiting-note" className="rounded-md bg-amber-500/10 px-3 py-2 text-xs leading-5 text-amber-300 ring-1 ring-amber-500/20">
      {note}
    </p>
  )
}
