import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react'
import { cn } from '@/lib/ui/cn'

const control =
  'rounded-lg bg-zinc-900 px-3 text-sm text-zinc-100 ring-1 ring-inset ring-zinc-700 placeholder:text-zinc-500 transition focus:outline-none focus:ring-2 focus:ring-brand-500 disabled:opacity-60'

/** Controls fill their row unless the caller gives a width. */
const width = (className?: string) => (/(^|\s)w-/.test(className ?? '') ? '' : 'w-full')

export function Input({ className, ...rest }: InputHTMLAttributes<HTMLInputElement>) {
  return <input className={cn(control, width(className), 'h-10', className)} {...rest} />
}

export function Textarea({ className, ...rest }: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <textarea className={cn(control, width(className), 'py-2 leading-relaxed', className)} {...rest} />
}

export function Select({ className, children, ...rest }: SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <select className={cn(control, width(className), 'h-10 pr-8', className)} {...rest}>
      {children}
    </select>
  )
}

/** A labelled form row with optional help and error text. */
export function Field({
  label,
  htmlFor,
  help,
  error,
  children,
  className,
}: {
  label: ReactNode
  htmlFor?: string
  help?: ReactNode
  error?: string | null
  children: ReactNode
  className?: string
}) {
  return (
    <div className={cn('space-y-1.5', className)}>
      <label htmlFor={htmlFor} className="block text-sm font-medium text-zinc-300">
        {label}
      </label>
      {children}
      {error ? <p className="text-xs text-red-400">{error}</p> : help ? <p className="text-xs text-zinc-500">{help}</p> : null}
    </div>
  )
}

/** A switch with its visible label on the left, in a row of its own. */
export function SwitchRow({
  id,
  label,
  checked,
  onChange,
  className,
}: {
  id: string
  label: string
  checked: boolean
  onChange: (next: boolean) => void
  className?: string
}) {
  return (
    <div className={cn('flex items-center justify-between', className)}>
      <label htmlFor={id} className="text-sm text-zinc-300">
        {label}
      </label>
      <Switch id={id} checked={checked} onChange={onChange} label={label} />
    </div>
  )
}

export function Switch({
  checked,
  onChange,
  label,
  disabled,
  id,
}: {
  checked: boolean
  onChange: (next: boolean) => void
  label?: string
  disabled?: boolean
  id?: string
}) {
  return (
    <button
      id={id}
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      disabled={disabled}
      onClick={() => onChange(!checked)}
      className={cn(
        'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition focus-visible:outline-2 focus-visible:outline-brand-400 disabled:opacity-50',
        checked ? 'bg-brand-500' : 'bg-zinc-700',
      )}
    >
      <span className={cn('inline-block size-5 rounded-full bg-white shadow transition', checked ? 'translate-x-5.5' : 'translate-x-0.5')} />
    </button>
  )
}

/** The `<option>`s of a label map (all its keys, or the `keys` given), after an optional `all` entry with the empty value. */
export function LabelOptions<K extends string>({ labels, keys, all }: { labels: Record<K, string>; keys?: readonly K[]; all?: string }) {
  return (
    <>
      {all !== undefined && <option value="">{all}</option>}
      {(keys ?? (Object.keys(labels) as K[])).map((k) => (
        <option key={k} value={k}>
          {labels[k]}
        </option>
      ))}
    </>
  )
}
