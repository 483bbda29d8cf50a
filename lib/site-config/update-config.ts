import 'server-only'
import { db } from '@/lib/db'
import { recordAudit } from '@/lib/audit/record-audit'
import type { SessionUser } from '@/lib/auth/session'
import { badRequest, notFound } from '@/lib/http/app-error'
import { describeZodError } from '@/lib/http/envelope'
import { findDefinition } from './registry'
import { isMasked, maskSecret, sealSecret } from './secret-box'
import { assertPaymentSwitchUsable, assertRechargeRange } from './payment-readiness'
import { assertSmsStaysUsable } from './sms-settings-guard'
import { getConfigValue, invalidateConfigCache, readConfigValues, type ConfigValue } from './store'

/**
 * Sets one setting after validating it against the registry and against the settings
 * it depends on (SMS must stay able to send while users depend on it). A secret sent
 * back in its masked form means "unchanged". The write and its audit record share a
 * transaction.
 */
export async function updateConfig(actor: SessionUser, ip: string, name: string, value: unknown): Promise<{ name: string; value: ConfigValue }> {
  const def = findDefinition(name)
  if (!def) throw notFound(`未知的配置项：${name}`)
  const isSecret = def.visibility === 'secret'
  const before = await getConfigValue(name)
  if (isSecret && isMasked(value)) return { name, value: maskSecret(String(before)) }

  const parsed = def.schema.safeParse(value)
  if (!parsed.success) throw badRequest(`${def.label}：${describeZodError(parsed.error, '取值')}`)
  const next = parsed.data as ConfigValue
  const json = JSON.stringify(next)
  const stored = isSecret ? sealSecret(json) : json
  const shown = (v: ConfigValue) => (isSecret ? maskSecret(String(v)) : v)

  await db().$transaction(async (tx) => {
    // Settings checked against each other (the recharge range, a switch and its keys) are
    // written one at a time, each checked against what is stored, not a kept copy: two
    // writes at once, in one process or two, could otherwise each pass and together break.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended('aiimg:site-config', 0))`
    const current = await readConfigValues(tx)
    assertSmsStaysUsable(name, next, current)
    assertPaymentSwitchUsable(name, next, current)
    assertRechargeRange(name, next, current)
    await tx.siteConfig.upsert({
      where: { name },
      create: { name, value: stored, updatedById: actor.id },
      update: { value: stored, updatedById: actor.id },
    })
    await recordAudit(tx, actor, ip, {
      action: 'site-config.update',
      targetType: 'SiteConfig',
      targetId: name,
      before: shown(current.get(name) ?? before),
      after: shown(next),
    })
  })
  invalidateConfigCache()
  return { name, value: shown(next) }
}
