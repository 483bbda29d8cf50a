/** Mainland mobile numbers, shared by the server schema and the sign-in forms. */
export const MOBILE_PATTERN = /^1[3-9]\d{9}$/
export const MOBILE_MESSAGE = '请输入 11 位中国大陆手机号'

/** Drops spaces, dashes and a leading +86 / 0086, as people type them. */
export function normalizeMobile(value: string): string {
  return value.replace(/[\s-]/g, '').replace(/^(\+86|0086)(?=\d{11}$)/, '')
}

/** 138****8000, for showing a bound phone. */
export function maskMobile(mobile: string): string {
  return mobile.length === 11 ? `${mobile.slice(0, 3)}****${mobile.slice(-4)}` : mobile
}
