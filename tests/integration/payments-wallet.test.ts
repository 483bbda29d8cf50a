// The wallet around the orders (docs/PRODUCT.md §14): what the site sells, the merchant switches,
// the registration gift, the daily check-in and an image member's discount on task prices.
import { generateKeyPairSync } from 'node:crypto'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import * as adminProduct from '@/app/api/admin/products/[id]/route'
import * as adminProducts from '@/app/api/admin/products/route'
import * as checkIn from '@/app/api/account/check-in/route'
import * as walletRoute from '@/app/api/account/wallet/route'
import * as register from '@/app/api/auth/register/route'
import * as products from '@/app/api/products/route'
import * as siteInfo from '@/app/api/site-config/site-info/route'
import * as siteConfigItem from '@/app/api/site-config/[name]/route'
import * as tasksRoute from '@/app/api/tasks/route'
import { beijingDay } from '@/lib/beijing-time'
import { db } from '@/lib/db'
import { callRoute, createUser } from '../helpers/call-route'
import { expectFail, expectOk } from '../helpers/expect-response'
import { ledgerMatchesColumns } from '../helpers/payments'
import { configure } from '../helpers/sign-in'
import { createModel } from '../helpers/tasks'

let admin: Awaited<ReturnType<typeof createUser>>

beforeAll(async () => {
  admin = await createUser({ role: 'ADMIN' })
})

const setting = (name: string, value: unknown) => callRoute(siteConfigItem.PATCH, { method: 'PATCH', token: admin.token, params: { name }, body: { value } })

describe('products', () => {
  it('an ADMIN creates, changes and removes what is sold; the public list shows enabled ones by sort, without empty fields', async () => {
    const made = expectOk(
      await callRoute(adminProducts.POST, {
        token: admin.token,
        body: { type: 'POINTS', name: '500 积分', description: '常用', price: 500, points: 500, enabled: true, sort: 2 },
      }),
    )
    const tier = expectOk(
      await callRoute(adminProducts.POST, {
        token: admin.token,
        body: { type: 'BALANCE', name: '充 100 送 10', price: 10_000, balance: 11_000, enabled: true, sort: 1 },
      }),
    )
    expectOk(await callRoute(adminProducts.POST, { token: admin.token, body: { type: 'POINTS', name: '下架的', price: 100, points: 100, enabled: false } }))
    const list = expectOk(await callRoute(products.GET)).list
    expect(list.map((p: { id: number }) => p.id)).toEqual([tier.id, made.id])
    expect(list[1]).toEqual({ id: made.id, type: 'POINTS', name: '500 积分', description: '常用', price: 500, points: 500, sort: 2 })

    expectFail(
      await callRoute(adminProducts.POST, { token: admin.token, body: { type: 'MEMBERSHIP', name: '缺天数', price: 100, enabled: true } }),
      400,
      /天数/,
    )
    expectFail(
      await callRoute(adminProduct.PATCH, { method: 'PATCH', token: admin.token, params: { id: String(made.id) }, body: { points: null } }),
      400,
      /积分数量/,
    )
    // A change writes what it names and nothing else: 上架 off keeps the description and the order.
    const patch = (body: object) => callRoute(adminProduct.PATCH, { method: 'PATCH', token: admin.token, params: { id: String(made.id) }, body })
    expect(expectOk(await patch({ enabled: false }))).toMatchObject({ description: '常用', sort: 2, enabled: false })
    // A new price does not put a product taken off sale back on it.
    expect(expectOk(await patch({ price: 450 }))).toMatchObject({ price: 450, enabled: false, description: '常用', sort: 2 })
    expect(expectOk(await callRoute(products.GET)).list.map((p: { id: number }) => p.id)).toEqual([tier.id])
    // A field it does not take is dropped, as it always was.
    expect(expectOk(await patch({ price: 460, id: 999_999, createdAt: '2000-01-01' }))).toMatchObject({ id: made.id, price: 460 })
    const manager = await createUser({ role: 'MANAGER' })
    expectFail(await callRoute(adminProducts.POST, { token: manager.token, body: { type: 'POINTS', name: 'x', price: 1, points: 1, enabled: true } }), 403)
    expect(expectOk(await callRoute(adminProduct.DELETE, { method: 'DELETE', token: admin.token, params: { id: String(made.id) } }))).toEqual({ deleted: true })
    expect(await db().adminAuditLog.count({ where: { targetType: 'Product' } })).toBeGreaterThanOrEqual(4)
  })
})

describe('merchant settings', () => {
  it('a payment switch turns on only with complete settings; keys are accepted as PEM or bare base64 and checked', async () => {
    expectFail(await setting('WXPAY_ENABLED', true), 400, /无法开启微信支付：请先填写/)
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
    const bare = privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64')
    expectOk(await setting('ALIPAY_PRIVATE_KEY', bare))
    expectOk(await setting('ALIPAY_PUBLIC_KEY', publicKey.export({ format: 'pem', type: 'pkcs1' }).toString()))
    expectFail(await setting('ALIPAY_PUBLIC_KEY', 'not a key'), 400, /不是有效的 RSA 公钥/)
    expectFail(await setting('ALIPAY_ENABLED', true), 400, /支付宝应用 AppID/)
    expectOk(await setting('ALIPAY_APP_ID', '2021000123456789'))
    expectOk(await setting('ALIPAY_ENABLED', true))
    const config = expectOk(await callRoute(siteInfo.GET)).config
    expect(config).toMatchObject({ ALIPAY_ENABLED: true, WXPAY_ENABLED: false })
    expect(JSON.stringify(config)).not.toContain(bare.slice(10, 40))
    // Secrets are masked for the console too.
    const listed = await db().siteConfig.findUniqueOrThrow({ where: { name: 'ALIPAY_PRIVATE_KEY' } })
    expect(listed.value).not.toContain(bare.slice(10, 40))
  })
})

describe('points for coming and coming back', () => {
  it('the registration gift is booked with the new account; 0 turns it off', async () => {
    await configure(admin.token, { SIGNUP_GIFT_POINTS: 30 })
    const made = expectOk(await callRoute(register.POST, { body: { username: 'giftuser1', password: 'a-good-password-1' } }))
    expect(made.token).toEqual(expect.any(String))
    const user = await db().user.findUniqueOrThrow({ where: { username: 'giftuser1' } })
    expect(user.points).toBe(30)
    expect(await db().ledgerEntry.findMany({ where: { userId: user.id }, select: { kind: true, reference: true } })).toEqual([
      { kind: 'SIGNUP_GIFT', reference: `signup-gift:${user.id}` },
    ])
    await configure(admin.token, { SIGNUP_GIFT_POINTS: 0 })
    expectOk(await callRoute(register.POST, { body: { username: 'giftuser2', password: 'a-good-password-2' }, ip: '10.0.0.2' }))
    expect((await db().user.findUniqueOrThrow({ where: { username: 'giftuser2' } })).points).toBe(0)
  })

  it('签到 once per Beijing day, even with 10 presses at once; off when the operator sets 0', async () => {
    await configure(admin.token, { CHECK_IN_POINTS: 7 })
    const user = await createUser()
    const presses = await Promise.all(Array.from({ length: 10 }, () => callRoute(checkIn.POST, { method: 'POST', token: user.token })))
    expect(presses.filter((p) => p.status === 200).map((p) => p.body.data)).toEqual([{ points: 7, total: 7 }])
    expect(presses.filter((p) => p.status === 409).every((p) => p.body.errMessage === '今天已经签到过了，明天再来吧')).toBe(true)
    expect(expectOk(await callRoute(walletRoute.GET, { token: user.token })).checkIn).toEqual({ points: 7, checkedInToday: true })
    await configure(admin.token, { CHECK_IN_POINTS: 0 })
    expectFail(await callRoute(checkIn.POST, { method: 'POST', token: user.token }), 404, /未开启签到/)
    expect(expectOk(await callRoute(walletRoute.GET, { token: user.token })).checkIn).toBeNull()
  })
})

describe('the wallet', () => {
  const channels = { wechat: expect.any(Boolean), alipay: expect.any(Boolean) }
  const recharge = { minCents: expect.any(Number), maxCents: expect.any(Number) }

  it('a non-member: the columns, no memberships, and whether today is checked in', async () => {
    await configure(admin.token, { CHECK_IN_POINTS: 5 })
    const user = await createUser({ points: 3, balance: 40 })
    // An expired membership is none.
    await db().membership.create({ data: { userId: user.id, kind: 'IMAGE', planName: '过期', expiresAt: new Date(Date.now() - 1000), dailyPoints: 9 } })
    const answer = { balance: 40, points: 3, membership: null, chatMembership: null, checkIn: { points: 5, checkedInToday: false }, channels, recharge }
    expect(expectOk(await callRoute(walletRoute.GET, { token: user.token }))).toEqual(answer)
    expectOk(await callRoute(checkIn.POST, { method: 'POST', token: user.token }))
    expect(expectOk(await callRoute(walletRoute.GET, { token: user.token }))).toEqual({ ...answer, points: 8, checkIn: { points: 5, checkedInToday: true } })
    expect(await db().ledgerEntry.count({ where: { userId: user.id, kind: 'MEMBERSHIP_DAILY' } })).toBe(0)
    await configure(admin.token, { CHECK_IN_POINTS: 0 })
  })

  it("a member: both memberships; the day's points booked on the first view only, and shown in it", async () => {
    const user = await createUser({ points: 1 })
    const imageEnds = new Date('2099-01-02T03:04:05.678Z')
    const chatEnds = new Date(Date.now() + 3_600_000)
    await db().membership.createMany({
      data: [
        { userId: user.id, kind: 'IMAGE', planName: '月卡', expiresAt: imageEnds, dailyPoints: 20, discountPercent: 15 },
        { userId: user.id, kind: 'CHAT', planName: '对话月卡', expiresAt: chatEnds, dailyMessages: null },
      ],
    })
    const answer = {
      balance: 0,
      points: 21,
      membership: { planName: '月卡', expiresAt: imageEnds.toISOString(), dailyPoints: 20, discountPercent: 15 },
      chatMembership: { planName: '对话月卡', expiresAt: chatEnds.toISOString(), dailyMessages: null },
      checkIn: null,
      channels,
      recharge,
    }
    const first = expectOk(await callRoute(walletRoute.GET, { token: user.token }))
    expect(first).toEqual(answer)
    expect(Object.keys(first)).toEqual(['balance', 'points', 'membership', 'chatMembership', 'checkIn', 'channels', 'recharge'])
    expect(Object.keys(first.membership)).toEqual(['planName', 'expiresAt', 'dailyPoints', 'discountPercent'])
    expect(await db().ledgerEntry.count({ where: { reference: `membership-daily:${user.id}:${beijingDay()}` } })).toBe(1)
    // Booked: later views are the one read, no transaction.
    const transactions = vi.spyOn(db(), '$transaction')
    try {
      expect(expectOk(await callRoute(walletRoute.GET, { token: user.token }))).toEqual(answer)
      expect(transactions).not.toHaveBeenCalled()
    } finally {
      transactions.mockRestore()
    }
    expect(await ledgerMatchesColumns()).toBe(true)
  })

  it("a member whose points are at the most a balance can hold still opens the wallet: the day's gift is skipped", async () => {
    const user = await createUser({ points: 2_147_483_640 })
    await db().membership.create({ data: { userId: user.id, kind: 'IMAGE', planName: '月卡', expiresAt: new Date(Date.now() + 3_600_000), dailyPoints: 20 } })
    expect(expectOk(await callRoute(walletRoute.GET, { token: user.token }))).toMatchObject({ points: 2_147_483_640 })
    expect(await db().ledgerEntry.count({ where: { userId: user.id, kind: 'MEMBERSHIP_DAILY' } })).toBe(0)
  })

  it('an unknown user is a 404', async () => {
    const { getWallet } = await import('@/lib/payments/wallet')
    await expect(getWallet('no-such-user')).rejects.toThrow('用户不存在')
  })
})

describe('an image membership at submit', () => {
  it('takes the discount off the task price (rounded up) and records the full price', async () => {
    const model = await createModel({ name: 'member-price', backend: 'demo', prices: { SD_TEXT2IMG: 3 } })
    const user = await createUser({ points: 100 })
    await db().membership.create({
      data: { userId: user.id, kind: 'IMAGE', planName: '月卡', expiresAt: new Date(Date.now() + 86_400_000), discountPercent: 20 },
    })
    const task = expectOk(
      await callRoute(tasksRoute.POST, {
        token: user.token,
        body: { type: 'SD_TEXT2IMG', modelId: model.id, params: { prompt: '猫', width: 256, height: 256, count: 2 } },
      }),
    )
    // 2 × 3 = 6 points; 20% off is 4.8, rounded up to 5.
    expect(await db().task.findUniqueOrThrow({ where: { id: task.id }, select: { chargedPoints: true, priceSnapshot: true } })).toMatchObject({
      chargedPoints: 5,
      priceSnapshot: { fullPrice: 6, discountPercent: 20 },
    })
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).points).toBe(95)
    expect(await ledgerMatchesColumns()).toBe(true)
  })
})
