import 'server-only'
import { db } from '@/lib/db'
import { notFound } from '@/lib/http/app-error'
import { toProfile, type Profile } from './user-views'

/**
 * The caller's user info (PROFILE_SELECT's columns). Every page asks for it, so it is one
 * plain statement: Prisma's query builder costs the web process about 0.2 ms more per call
 * (docs/RELIABILITY.md §6).
 */
export async function getProfile(userId: string): Promise<Profile> {
  const [row] = await db().$queryRaw<Parameters<typeof toProfile>[0][]>`
    SELECT "id", "username", "name", "avatar", "mobile", "role", "points", "balance", "wxOpenId", "createdAt" FROM "User" WHERE "id" = ${userId}`
  if (!row) throw notFound('用户不存在')
  return toProfile(row)
}
