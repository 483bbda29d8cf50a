/**
 * What the launcher prints about SMS when the site starts: with the `log` provider (the
 * default of a trial site) no text message is sent, and whoever runs the site must know
 * that the codes are in this log. Null when a real provider is set, or when `log` is
 * refused anyway (a production deployment: sms-provider.ts says so on each send).
 *
 * `stored`: the SiteConfig rows' JSON values by name (missing ones have their defaults).
 */
export function smsStartupNotice(stored: ReadonlyMap<string, string>, logAllowed: boolean): string | null {
  const read = (name: string): unknown => {
    try {
      return JSON.parse(stored.get(name) ?? 'null')
    } catch {
      return null
    }
  }
  const provider = read('SMS_PROVIDER') ?? 'log'
  if (provider !== 'log' || !logAllowed) return null
  const inUse = [read('SMS_LOGIN_ENABLED') === true && 'SMS sign-in', read('MOBILE_ENABLED') === true && 'required phone binding'].filter(Boolean)
  return [
    '[start] SMS provider is "log": verification codes are written to this log as "SMS to <phone>: <code>", no text message is sent.',
    `        ${inUse.length ? `In use now by ${inUse.join(' and ')}.` : 'SMS sign-in and phone binding are off.'} Fine for a trial; before real users sign in, choose aliyun or tencent in /admin/site_config (短信).`,
  ].join('\n')
}

/** The settings smsStartupNotice reads. */
export const SMS_STARTUP_SETTINGS = ['SMS_PROVIDER', 'SMS_LOGIN_ENABLED', 'MOBILE_ENABLED']
