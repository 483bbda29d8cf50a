import 'server-only'
import { db } from '@/lib/db'
import { notFound } from '@/lib/http/app-error'
import { PROFILE_SELECT, toProfile, type Profile } from './user-views'

export async function getProfile(userId: string): Promise<Profile> {
  const row = await db().user.findUnique({ where: { id: userId }, select: PROFILE_SELECT })
  if (!row) throw notFound('用户不存在')
  return toProfile(row)
}
