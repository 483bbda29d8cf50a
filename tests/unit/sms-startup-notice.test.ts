import { describe, expect, it } from 'vitest'
import { smsStartupNotice } from '@/lib/auth/sms/startup-notice'

/** At start the launcher says where SMS codes go while the `log` provider is active (a trial site). */
describe('smsStartupNotice', () => {
  const stored = (values: Record<string, unknown>) => new Map(Object.entries(values).map(([k, v]) => [k, JSON.stringify(v)]))

  it('says the codes go to the log on a fresh trial site (nothing stored: the default provider is log)', () => {
    const notice = smsStartupNotice(new Map(), true)
    expect(notice).toMatch(/SMS provider is "log": verification codes are written to this log/)
    expect(notice).toContain('SMS sign-in and phone binding are off')
  })

  it('names what uses SMS when it is switched on', () => {
    expect(smsStartupNotice(stored({ SMS_PROVIDER: 'log', SMS_LOGIN_ENABLED: true, MOBILE_ENABLED: true }), true)).toContain(
      'In use now by SMS sign-in and required phone binding.',
    )
  })

  it('says nothing with a real provider, or where log is refused anyway', () => {
    expect(smsStartupNotice(stored({ SMS_PROVIDER: 'aliyun', SMS_LOGIN_ENABLED: true }), true)).toBeNull()
    expect(smsStartupNotice(stored({ SMS_PROVIDER: 'log' }), false)).toBeNull()
  })
})
