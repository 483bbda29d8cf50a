import type { Value } from './config-edits'
import type { ConfigItemView } from './site-config-editor'

const SMS_SWITCHES = ['SMS_LOGIN_ENABLED', 'MOBILE_ENABLED']

/**
 * A switch that is on, or being turned on, while what it needs is missing: the warning
 * shown under it. Saving is refused only where nothing could work (the server's SMS
 * guard); these are the cases that save but leave users stuck or surprised.
 * `valueOf` gives a setting's value as the form shows it (typed but unsaved included).
 */
export function switchWarning(name: string, valueOf: (name: string) => Value | undefined, isSet: (name: string) => boolean): string | null {
  if (valueOf(name) !== true) return null
  if (SMS_SWITCHES.includes(name) && (valueOf('SMS_PROVIDER') ?? 'log') === 'log') {
    return '短信服务商是 log：验证码只写入服务器日志，用户收不到短信。仅适合试用，正式运营前请在“短信”中选择阿里云或腾讯云短信并填好配置。'
  }
  if (name === 'WX_ENABLED') {
    const missing = [!String(valueOf('WX_APP_ID') ?? '').trim() && '公众号 AppID', !isSet('WX_APP_SECRET') && '公众号 AppSecret'].filter(Boolean)
    if (missing.length) return `还没有填写${missing.join('和')}：开启后微信登录仍不可用，用户会看到“未完成配置”。请先填写下方的${missing.join('和')}。`
  }
  return null
}

/** The lookups switchWarning needs, over every setting: this group's edits first, then the server's values. */
export function settingLookup(all: readonly ConfigItemView[], edits: Record<string, Value>) {
  const byName = new Map(all.map((item) => [item.name, item]))
  return {
    valueOf: (name: string) => (name in edits ? edits[name] : byName.get(name)?.value),
    // A setting this console cannot see (secrets, for a MANAGER) is not known to be missing.
    isSet: (name: string) => (name in edits ? String(edits[name]).trim() !== '' : (byName.get(name)?.isSet ?? true)),
  }
}
