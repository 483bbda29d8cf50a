import dayjs from 'dayjs'

/** docs/PRODUCT.md §9: default date format. */
export const DATE_FORMAT = 'YYYY-MM-DD HH:mm:ss'

export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return '-'
  const d = dayjs(value)
  return d.isValid() ? d.format(DATE_FORMAT) : '-'
}

/** docs/PRODUCT.md §9: amounts are cents shown divided by 100 with 2 decimals. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : ''
  const abs = Math.abs(Math.trunc(cents))
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}

/** Parses a yuan amount typed by a person ("12", "-3.5", "0.05") into integer cents, or null. */
export function parseYuanToCents(text: string): number | null {
  const match = /^([+-])?(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text.trim())
  if (!match) return null
  const cents = Number(match[2]) * 100 + Number((match[3] ?? '').padEnd(2, '0'))
  return match[1] === '-' ? -cents : cents
}
