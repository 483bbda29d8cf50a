import { env } from '@/lib/env'
import { badRequest } from '@/lib/http/app-error'
import { findDefinition } from './registry'
import { SMS_PROVIDER_SETTINGS, smsProviderProblem, type SmsProviderProblem } from './sms-readiness'
import type { ConfigValue } from './store'

/** The settings that make users depend on SMS: with either on and SMS unable to send, nobody could get a code. */
export const SMS_SWITCHES = ['MOBILE_ENABLED', 'SMS_LOGIN_ENABLED'] as const

const label = (name: string) => `“${findDefinition(name)?.label ?? name}”`

export function describeSmsProblem(problem: SmsProviderProblem): string {
  if (problem.kind === 'log-refused') return '短信服务商是 log（验证码只写入服务器日志），生产部署中不可用，请先选择阿里云或腾讯云短信并填好它的配置'
  const provider = problem.provider === 'aliyun' ? '阿里云短信' : '腾讯云短信'
  return `${provider}的配置不完整，缺少 ${problem.names.map(label).join('、')}`
}

/**
 * Refuses a change that would leave a switch of SMS_SWITCHES on while SMS cannot be
 * sent (the log provider in production, a provider's settings left empty): turning a
 * switch on requires a working provider, and while one is on the provider settings
 * cannot be changed from working to not working. Turning a switch off is always
 * allowed, and so is any change to a setup that was already broken.
 */
export function assertSmsStaysUsable(name: string, next: ConfigValue, current: ReadonlyMap<string, ConfigValue>): void {
  const isSwitch = (SMS_SWITCHES as readonly string[]).includes(name)
  if (!isSwitch && !SMS_PROVIDER_SETTINGS.includes(name)) return
  if (isSwitch && next !== true) return
  const after = new Map(current).set(name, next)
  const on = SMS_SWITCHES.filter((s) => after.get(s) === true)
  if (!on.length) return
  const problem = smsProviderProblem(after, env())
  if (!problem) return
  if (isSwitch) throw badRequest(`无法开启${label(name)}：${describeSmsProblem(problem)}`)
  if (smsProviderProblem(current, env())) return
  throw badRequest(
    `${on.map(label).join('和')}已开启，短信服务必须保持可用，这项修改会导致无法发送验证码：${describeSmsProblem(problem)}。如需更换短信服务，请先填好新服务的全部配置再切换，或先关闭${on.map(label).join('和')}`,
  )
}
