import { randomBytes } from 'node:crypto'
import type { PrismaClient } from '@/lib/generated/prisma/client'
import { hashPassword } from '@/lib/auth/password'

export type EnsureAdminResult =
  | { created: false }
  | { created: true; username: string; generatedPassword: string | null }

/**
 * On first start (no ADMIN exists) creates the administrator: ADMIN_USERNAME with
 * ADMIN_PASSWORD, or with a generated password that the caller prints once.
 */
export async function ensureAdmin(client: PrismaClient, username: string, password: string | undefined): Promise<EnsureAdminResult> {
  const existing = await client.user.findFirst({ where: { role: 'ADMIN' }, select: { id: true } })
  if (existing) return { created: false }
  const taken = await client.user.findUnique({ where: { username: username.toLowerCase() }, select: { role: true } })
  if (taken) {
    throw new Error(`ADMIN_USERNAME "${username}" belongs to an existing ${taken.role} account; choose another name.`)
  }
  const generatedPassword = password ? null : randomBytes(12).toString('base64url')
  await client.user.create({
    data: {
      username: username.toLowerCase(),
      name: '管理员',
      role: 'ADMIN',
      passwordHash: await hashPassword(password ?? generatedPassword!),
    },
  })
  return { created: true, username: username.toLowerCase(), generatedPassword }
}

/**
 * On first start (no model at all) adds the built-in demo renderer, so a new site can
 * generate at once; the operator sets prices, adds real backends and may disable it.
 */
export async function ensureDemoModel(client: PrismaClient): Promise<boolean> {
  if (await client.aiModel.count()) return false
  await client.aiModel.create({
    data: {
      name: '演示渲染器',
      backend: 'demo',
      prices: { SD_TEXT2IMG: 1, SD_IMG2IMG: 1, SD_IMGINPAINT: 1, SD_IMGCONTROLNET: 1 },
      concurrency: 2,
      sort: 100,
    },
  })
  return true
}
