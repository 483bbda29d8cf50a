/**
 * The answers this process is streaming. A web server that shuts down cannot wait the
 * minutes an answer may take, and a process that leaves mid-answer stores nothing of it:
 * the text the user saw would be gone and the sweeper would refund it 15 minutes later.
 * So the server (scripts/next-server.mjs) stops them: each keeps what has arrived (marked
 * incomplete) or, with nothing yet, is refunded, and its stream ends with `done` or `error`.
 * The set lives on globalThis because that script is outside Next.js's bundles.
 */
export type OpenAnswer = {
  /** Stops the answer; settles once it is stored and its stream has ended. */
  stop(): Promise<void>
}

const holder = globalThis as unknown as { aiimgOpenAnswers?: Set<OpenAnswer> }

export function openAnswers(): Set<OpenAnswer> {
  return (holder.aiimgOpenAnswers ??= new Set())
}

export async function stopOpenAnswers(): Promise<void> {
  await Promise.all([...openAnswers()].map((answer) => answer.stop()))
}
