import { describe, expect, it } from 'vitest'
import * as register from '@/app/api/auth/register/route'
import * as login from '@/app/api/auth/login/route'
import * as profile from '@/app/api/users/profile/route'
import { callRoute } from '../helpers/call-route'

describe('register and login', () => {
  it('registers, logs in and reads the profile', async () => {
    const reg = await callRoute(register.POST, { body: { username: 'Alice_1', password: 'correct-horse' } })
    expect(reg.status).toBe(200)
    expect(reg.body.data.token).toEqual(expect.any(String))

    const res = await callRoute(login.POST, { body: { username: 'alice_1', password: 'correct-horse' } })
    expect(res.status).toBe(200)
    const me = await callRoute(profile.GET, { token: res.body.data.token })
    expect(me.body.data).toMatchObject({
      username: 'alice_1',
      name: 'alice_1',
      avatar: '/imgs/default_avatar.png',
      role: 'USER',
      points: 0,
      balance: 0,
      oauth: { hasOpenId: false },
    })
    expect(me.body.data).not.toHaveProperty('passwordHash')
  })
})
