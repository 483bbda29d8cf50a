import 'server-only'
import { readRows, type Listed } from '@/lib/db/read-rows'
import { Prisma } from '@/lib/generated/prisma/client'
import { notFound } from '@/lib/http/app-error'
import { toProfile, type Profile, type ProfileRow } from './user-views'

/**
 * The caller's user info (PROFILE_SELECT's columns). Every page asks for it, so it is one
 * plain statement straight to pg: Prisma's `$queryRaw` costs the web process about 0.1 ms
 * more per call (docs/RELIABILITY.md §6).
 */
export async function getProfile(userId: string): Promise<Listed<Profile>> {
  const [row] = await readRows<Listed<ProfileRow>[]>(
    Prisma.sql`SELECT "id", "username", "name", "avatar", "mobile", "role", "points", "balance", "wxOpenId", "createdAt" FROM "User" WHERE "id" = ${userId}`,
  )
  if (!row) throw notFound('用户不存在')
  return toProfile(row)
}
