// The lists' rows are written as JSON by PostgreSQL and sent as they come (lib/db/json-rows.ts,
// docs/DECISIONS.md "List rows written by PostgreSQL"). Here: that JSON is, byte for byte,
// what JSON.stringify makes of the same values, and each list's row is the JSON of the view
// the app builds for that one row elsewhere.
import { beforeAll, describe, expect, it } from 'vitest'
import * as cardsRoute from '@/app/api/admin/cards/route'
import * as usersRoute from '@/app/api/users/route'
import * as wallRoute from '@/app/api/wall/route'
import { db } from '@/lib/db'
import { isoText, jsonObject, jsonObjectOrNull, jsonRowText } from '@/lib/db/json-rows'
import { readRows } from '@/lib/db/read-rows'
import { Prisma } from '@/lib/generated/prisma/client'
import { ADMIN_CARD_SELECT, toAdminCardRow } from '@/lib/cards/card-views'
import { ADMIN_USER_SELECT, toAdminUserRow } from '@/lib/users/user-views'
import { toWallItem, wallItemSelect } from '@/lib/wall/wall-views'
import { callRoute, createUser } from '../helpers/call-route'
import { freshKeys, insertCards } from '../helpers/cards-fixtures'
import { createModel, createTaskRow } from '../helpers/tasks'

const TEXTS = [
  '画手 "一号"',
  'back\\slash / slash',
  '换行\n回车\r制表\t',
  'control \u0001\u001f\u007f',
  '😀 emoji 𠀋',
  '</script><b>',
  'line\u2028sep\u2029',
  '',
]

async function rowOf(fields: Parameters<typeof jsonRowText>[1]): Promise<string> {
  const rows = await readRows<{ row: string }[]>(Prisma.sql`SELECT ${jsonRowText(Prisma.sql`true`, fields)} AS "row"`)
  return rows[0]!.row
}

describe('a row written as JSON by PostgreSQL', () => {
  it('is the text JSON.stringify gives: strings escaped alike, keys in order, numbers, booleans and nulls', async () => {
    for (const text of TEXTS) {
      const row = await rowOf({
        text: Prisma.sql`${text}::text`,
        n: Prisma.sql`${-2147483648}::int`,
        big: Prisma.sql`${1234567}::int`,
        yes: Prisma.sql`true`,
        none: Prisma.sql`NULL::text`,
      })
      expect(row).toBe(JSON.stringify({ text, n: -2147483648, big: 1234567, yes: true, none: null }))
    }
  })

  it('writes timestamps as a Date is written, to the millisecond, and nests objects or null', async () => {
    for (const at of [
      new Date('2026-01-01T08:00:01.123Z'),
      new Date('2026-12-31T23:59:59.999Z'),
      new Date('2026-06-01T00:00:00.000Z'),
      new Date('1999-02-03T04:05:06.070Z'),
    ]) {
      const row = await rowOf({
        at: isoText(Prisma.sql`${at}::timestamp(3)`),
        never: isoText(Prisma.sql`NULL::timestamp(3)`),
        user: jsonObject({ id: Prisma.sql`'u1'`, name: Prisma.sql`${'画手'}::text` }),
        holder: jsonObjectOrNull(Prisma.sql`false`, { id: Prisma.sql`'u2'` }),
      })
      expect(row).toBe(JSON.stringify({ at, never: null, user: { id: 'u1', name: '画手' }, holder: null }))
    }
  })

  it('keeps a JSON column as the same value', async () => {
    const params = { prompt: '一只橘猫 "坐着"', count: 2, seed: -1, nested: { list: [1, 'a', null, true], empty: {} } }
    const row = await rowOf({ params: Prisma.sql`${JSON.stringify(params)}::jsonb` })
    expect(JSON.parse(row)).toEqual({ params })
  })

  it('refuses a key that would need quoting in SQL', () => {
    expect(() => jsonObject({ 'a"b': Prisma.sql`1` } as never)).toThrow(/not a JSON key/)
  })
})

describe("each list's row is its one-row view's JSON", () => {
  let admin: Awaited<ReturnType<typeof createUser>>
  let fan: Awaited<ReturnType<typeof createUser>>

  beforeAll(async () => {
    admin = await createUser({ role: 'ADMIN' })
    fan = await createUser({ name: '粉丝 "阿\\花"' })
  })

  it('an admin card row: held, redeemed, disabled or untouched, with or without a batch note', async () => {
    const cards = await insertCards(freshKeys(4, 'JR'), { status: 'SUCCESS', points: 30 })
    const [held, used, disabled] = cards
    await db().cardBatch.update({ where: { id: held.batchId }, data: { note: '春节 "活动"\n第二批' } })
    await db().card.update({ where: { id: held.id }, data: { holderId: fan.id } })
    await db().card.update({ where: { id: used.id }, data: { usedById: fan.id, usedAt: new Date('2026-02-03T04:05:06.789Z') } })
    await db().card.update({
      where: { id: disabled.id },
      data: { disabledAt: new Date(), failReason: '人工停用', expiresAt: new Date('2027-01-01T00:00:00Z') },
    })
    const res = await callRoute(cardsRoute.GET, { token: admin.token, query: { batchId: held.batchId, pageSize: 10 } })
    const listed = res.body.data.list as { id: number }[]
    expect(listed).toHaveLength(4)
    for (const row of listed) {
      const view = toAdminCardRow(await db().card.findUniqueOrThrow({ where: { id: row.id }, select: ADMIN_CARD_SELECT }))
      expect(JSON.stringify(row)).toBe(JSON.stringify(view))
    }
  })

  it('a wall item: a picture and a clip, for a visitor and for a signed-in user who liked one', async () => {
    const model = await createModel()
    const works = []
    for (const clip of [false, true]) {
      const task = await createTaskRow(fan.id, { modelId: model.id })
      works.push(
        await db().wallWork.create({
          data: {
            taskId: task.id,
            userId: fan.id,
            status: 'APPROVED',
            listedAt: new Date(Date.now() + 60_000),
            modelType: clip ? 'VIDEO' : 'STABLE_DIFFUSION',
            modelName: '模型 "甲"',
            imageUrl: '/files/x/a.png',
            thumbUrl: '/files/x/a.thumb.webp',
            videoUrl: clip ? '/files/x/a.mp4' : null,
            durationSec: clip ? 10 / 3 : null,
            width: 512,
            height: 768,
            prompt: '湖边的"枫叶"\n第二行',
            likes: 3,
          },
        }),
      )
    }
    await db().wallLike.create({ data: { workId: works[1]!.id, userId: admin.id } })
    for (const viewer of [null, admin]) {
      const res = await callRoute(wallRoute.GET, { token: viewer?.token, query: { limit: 2 } })
      const listed = res.body.data.list as { id: string }[]
      expect(listed.map((w) => w.id).sort()).toEqual(works.map((w) => w.id).sort())
      for (const item of listed) {
        const view = toWallItem(
          await db().wallWork.findUniqueOrThrow({ where: { id: item.id }, select: wallItemSelect(viewer?.id ?? null) }),
          viewer?.id ?? null,
        )
        expect(JSON.stringify(item)).toBe(JSON.stringify(view))
      }
    }
  })

  it('an admin user row: bound to WeChat or not, banned, agreed to the terms or not', async () => {
    const keyword = `jr${Date.now().toString(36)}`
    const plain = await createUser({ username: `${keyword}a`, name: '普通 "用户"' })
    const bound = await createUser({ username: `${keyword}b`, role: 'MANAGER' })
    await db().user.update({
      where: { id: bound.id },
      data: { wxOpenId: 'o-openid-1', bannedAt: new Date(), agreedTermsAt: new Date('2026-03-04T05:06:07.008Z'), mobile: '13800000000' },
    })
    await db().user.update({ where: { id: plain.id }, data: { wxOpenId: '' } })
    const res = await callRoute(usersRoute.GET, { token: admin.token, query: { keyword, pageSize: 10 } })
    const listed = res.body.data.list as { id: string }[]
    expect(listed).toHaveLength(2)
    for (const row of listed) {
      const view = toAdminUserRow(await db().user.findUniqueOrThrow({ where: { id: row.id }, select: ADMIN_USER_SELECT }))
      expect(JSON.stringify(row)).toBe(JSON.stringify(view))
    }
  })
})
