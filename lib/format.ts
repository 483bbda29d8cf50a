import dayjs from 'dayjs'

/** SPEC section 9: default date format. */
export const DATE_FORMAT = 'YYYY-MM-DD HH:mm:ss'

export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return '-'
  const d = dayjs(value)
  return d.isValid() ? d.format(DATE_FORMAT) : '-'
}

/** SPEC section 9: amounts are cents shown divided by 100 with 2 decimals. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : ''
  const abs = Math.abs(Math.trunc(cents))
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}
