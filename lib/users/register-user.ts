import { db } from '@/lib/db'
import { hashPassword } from '@/lib/auth/password'
import { issueToken } from '@/lib/auth/token'
import { badRequest, conflict, forbidden } from '@/lib/http/app-error'
import { getConfigValue } from '@/lib/site-config/store'
import { isTooCommon } from './common-passwords'
import type { TCredentials } from './schemas'

/** Creates a USER account with a password and signs it in. */
export async function registerUser({ username, password }: TCredentials): Promise<{ token: string }> {
  if (!(await getConfigValue<boolean>('REGISTER_ENABLED'))) throw forbidden('本站暂未开放注册')
  if (isTooCommon(password, username)) throw badRequest('密码太常见，请换一个更难猜的密码')
  const passwordHash = await hashPassword(password)
  try {
    const user = await db().user.create({
      data: { username, name: username, passwordHash },
      select: { id: true, tokenVersion: true },
    })
    return { token: await issueToken(user.id, user.tokenVersion) }
  } catch (error) {
    if ((error as { code?: string }).code === 'P2002') throw conflict('用户名已被占用')
    throw error
  }
}
