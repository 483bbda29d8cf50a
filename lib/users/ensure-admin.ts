import 'server-only'
import { randomBytes } from 'node:crypto'
import type { PrismaClient } from '@/lib/generated/prisma/client'
import { hashPassword } from '@/lib/auth/password'
import type { Tx } from '@/lib/db'

export type EnsureAdminResult = { created: false } | { created: true; username: string; generatedPassword: string | null }

/**
 * First-start work runs in every web process that starts, possibly several at once on
 * one empty database: each decision is taken under a transaction-scoped advisory lock,
 * so the second process waits, then finds what the first one made.
 */
async function underStartLock<T>(client: PrismaClient, name: string, work: (tx: Tx) => Promise<T>): Promise<T> {
  return client.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`aiimg:first-start:${name}`}, 0))`
    return work(tx)
  })
}

/**
 * On first start (no ADMIN exists) creates the administrator: ADMIN_USERNAME with
 * ADMIN_PASSWORD, or with a generated password that the caller prints once. Exactly one
 * of several processes starting together creates it.
 */
export async function ensureAdmin(client: PrismaClient, username: string, password: string | undefined): Promise<EnsureAdminResult> {
  const hasAdmin = async (c: Pick<PrismaClient, 'user'>) => Boolean(await c.user.findFirst({ where: { role: 'ADMIN' }, select: { id: true } }))
  if (await hasAdmin(client)) return { created: false }
  const name = username.toLowerCase()
  const generatedPassword = password ? null : randomBytes(12).toString('base64url')
  // Hashed before the lock is taken: the hash is slow and the lock holds up the other processes.
  const passwordHash = await hashPassword(password ?? generatedPassword!)

  return underStartLock(client, 'admin', async (tx) => {
    if (await hasAdmin(tx)) return { created: false }
    const taken = await tx.user.findUnique({ where: { username: name }, select: { role: true } })
    if (taken) throw new Error(`ADMIN_USERNAME "${username}" belongs to an existing ${taken.role} account; choose another name.`)
    await tx.user.create({ data: { username: name, name: '管理员', role: 'ADMIN', passwordHash } })
    return { created: true, username: name, generatedPassword }
  })
}

/** A settings row no setting reads: the demo models were offered once, on this site's first start. */
export const DEMO_MODELS_MARK = 'startup.demoModelsAdded'

/**
 * On first start (no model at all) adds the built-in demo renderer, for pictures and for
 * clips, so a new site can generate at once; the operator sets prices, adds real
 * backends and may disable or delete them. Only once: a site whose operator deleted every
 * model does not get paid demo models back at its next restart.
 */
export async function ensureDemoModel(client: PrismaClient): Promise<boolean> {
  if (await client.siteConfig.findUnique({ where: { name: DEMO_MODELS_MARK }, select: { name: true } })) return false
  return underStartLock(client, 'demo-model', async (tx) => {
    if (await tx.siteConfig.findUnique({ where: { name: DEMO_MODELS_MARK }, select: { name: true } })) return false
    await tx.siteConfig.create({ data: { name: DEMO_MODELS_MARK, value: 'true' } })
    // A site that had models before this mark existed is not a first start either.
    if (await tx.aiModel.count()) return false
    await tx.aiModel.create({
      data: {
        name: '演示渲染器',
        backend: 'demo',
        prices: { SD_TEXT2IMG: 1, SD_IMG2IMG: 1, SD_IMGINPAINT: 1, SD_IMGCONTROLNET: 1 },
        // The renderer's own default pace (DEMO_STEP_MS), written out so the console shows the knob.
        options: { stepMs: 250 },
        concurrency: 2,
        sort: 100,
      },
    })
    await tx.aiModel.create({
      data: {
        name: '演示视频',
        type: 'VIDEO',
        backend: 'demo',
        prices: { VIDEO_TEXT2VIDEO: 1, VIDEO_IMG2VIDEO: 1 },
        options: { stepMs: 250, durations: [5], ratios: ['16:9', '9:16', '1:1'], resolutions: ['720p'] },
        concurrency: 1,
        sort: 101,
      },
    })
    return true
  })
}
