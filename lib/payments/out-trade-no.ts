import { randomInt } from 'node:crypto'

/**
 * Our order number at the providers: P + UTC yyyyMMddHHmmss + 10 random digits (25 characters,
 * within WeChat's 6-32 of [0-9A-Za-z_-|*] and Alipay's 64 of [0-9A-Za-z_]). One per attempt.
 */
export function newOutTradeNo(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 14)
  let digits = ''
  for (let i = 0; i < 10; i++) digits += String(randomInt(10))
  return `P${stamp}${digits}`
}

/** Alipay's yuan string ("12.30") as cents, by string parsing; null when it is not an amount. */
export function yuanStringToCents(value: string | undefined | null): number | null {
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(value ?? '')
  if (!match) return null
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'))
}

export function centsToYuanString(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`
}

/** WeChat's time_expire: RFC 3339 in Beijing time with its offset. */
export function wechatTime(date: Date): string {
  return new Date(date.getTime() + 8 * 3600_000).toISOString().replace(/\.\d{3}Z$/, '+08:00')
}

/** Alipay's time_expire: yyyy-MM-dd HH:mm:ss in Beijing time. */
export function alipayTime(date: Date): string {
  return new Date(date.getTime() + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ')
}
