import { env } from '@/lib/env'
import { CONFIG_REGISTRY, type PublicConfig } from './registry'
import { paymentEnabled } from './payment-readiness'
import { smsProviderProblem } from './sms-readiness'
import { SMS_SWITCHES } from './sms-settings-guard'
import { getAllConfigValues } from './store'

/**
 * The settings every browser may see (data.config of /api/site-config/site-info, docs/PRODUCT.md §3.1).
 * The SMS switches read as off while SMS cannot be sent (say the deployment became a
 * production one with the log provider): a required binding nobody can complete would
 * lock every user without a phone, administrators included, out of the site.
 */
export async function getPublicConfig(): Promise<PublicConfig> {
  const values = await getAllConfigValues()
  const config: Record<string, unknown> = {}
  for (const def of CONFIG_REGISTRY) if (def.visibility === 'public') config[def.name] = values.get(def.name)
  if (SMS_SWITCHES.some((name) => config[name] === true) && smsProviderProblem(values, env())) {
    for (const name of SMS_SWITCHES) config[name] = false
  }
  config.WXPAY_ENABLED = paymentEnabled('wechat', values)
  config.ALIPAY_ENABLED = paymentEnabled('alipay', values)
  return config as PublicConfig
}
