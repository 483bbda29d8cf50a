import 'server-only'
import { forgetSessionUser } from '@/lib/auth/session-cache'
import { db } from '@/lib/db'
import { afterWriting } from '@/lib/signals/answer-cache'
import { PROFILE_SELECT, toProfile, type Profile } from './user-views'

export async function updateProfile(userId: string, data: { name?: string; avatar?: string }): Promise<Profile> {
  const row = await afterWriting('wall', db().user.update({ where: { id: userId }, data, select: PROFILE_SELECT }))
  forgetSessionUser(userId)
  return toProfile(row)
}
