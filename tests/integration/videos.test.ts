// Video material (docs/PRODUCT.md §18): orders for one item and a batch charge exactly the shown
// total once, a replayed payment notification grants nothing twice, originals are reachable only
// through signed, expiring links (with byte ranges), and never by the public /files route.
import { existsSync } from 'node:fs'
import { readFile, readdir, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import * as adminVideos from '@/app/api/admin/videos/route'
import * as adminVideo from '@/app/api/admin/videos/[id]/route'
import * as uploads from '@/app/api/admin/videos/uploads/route'
import * as chunk from '@/app/api/admin/videos/uploads/[id]/chunks/[index]/route'
import * as purchases from '@/app/api/admin/video-purchases/route'
import * as refund from '@/app/api/admin/orders/[id]/refund/route'
import * as files from '@/app/files/[...key]/route'
import * as orders from '@/app/api/orders/route'
import * as wechatNotify from '@/app/api/pay/wechat/notify/route'
import * as videos from '@/app/api/videos/route'
import * as videoById from '@/app/api/videos/[id]/route'
import * as download from '@/app/api/videos/[id]/download/route'
import * as videoFile from '@/app/api/videos/[id]/file/route'
import * as mine from '@/app/api/videos/mine/route'
import { db } from '@/lib/db'
import { probeVideo, runFfmpeg, withScratch } from '@/lib/generation/video-file'
import { readStoredFile } from '@/lib/storage/storage'
import { listMyVideos } from '@/lib/videos/list-videos'
import { toListItem, VIDEO_ROW } from '@/lib/videos/video-views'
import { callRoute, createUser } from '../helpers/call-route'
import { expectFail, expectOk } from '../helpers/expect-response'
import { configureMerchants, ledgerMatchesColumns, placeOrder, startPaymentWorld, type PaymentWorld } from '../helpers/payments'
import { configure } from '../helpers/sign-in'

let world: PaymentWorld
let admin: Awaited<ReturnType<typeof createUser>>
let clip: Buffer
const ids: Record<'a' | 'b' | 'c' | 'free', string> = { a: '', b: '', c: '', free: '' }

async function makeClip(): Promise<Buffer> {
  return withScratch(async (dir) => {
    const out = path.join(dir, 'clip.mp4')
    await runFfmpeg([
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=320x240:rate=12:duration=2',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      out,
    ])
    return readFile(out)
  })
}

function formOf(fields: Record<string, string>, file?: Buffer): FormData {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) form.set(k, v)
  if (file) form.set('file', new Blob([new Uint8Array(file)]), 'clip.mp4')
  return form
}

async function createVideo(form: FormData) {
  const res = await adminVideos.POST(
    new Request('http://localhost/api/admin/videos', { method: 'POST', headers: { authorization: `Bearer ${admin.token}` }, body: form }),
  )
  return { status: res.status, body: await res.json() }
}

/** Follows a link the API handed out (our signed /api/videos/{id}/file route). */
async function follow(link: string, headers: Record<string, string> = {}) {
  const url = new URL(link, 'http://localhost')
  const id = url.pathname.split('/')[3]!
  return videoFile.GET(new Request(url, { headers }), { params: Promise.resolve({ id }) })
}

const balance = async (userId: string) => (await db().user.findUniqueOrThrow({ where: { id: userId }, select: { balance: true } })).balance
const post = (n: { headers: Record<string, string>; body: string }) =>
  wechatNotify.POST(new Request('http://localhost/api/pay/wechat/notify', { method: 'POST', ...n }))

beforeAll(async () => {
  world = await startPaymentWorld()
  admin = await createUser({ role: 'ADMIN' })
  await configureMerchants(admin.token, world)
  clip = await makeClip()
  const base = { description: '城市夜景', tags: '城市,夜景', published: 'true' }
  for (const [name, price] of [
    ['a', 300],
    ['b', 500],
    ['c', 700],
  ] as const) {
    const made = await createVideo(formOf({ ...base, title: `付费 ${name}`, kind: 'paid', price: String(price) }, clip))
    expect(made.status).toBe(200)
    ids[name] = made.body.data.id
  }
  ids.free = expectOk(await createVideo(formOf({ ...base, title: '免费素材', kind: 'free', price: '0' }, clip))).id
}, 120_000)

afterAll(async () => {
  expect(await ledgerMatchesColumns()).toBe(true)
  await world.close()
})

describe('the operator adds items', () => {
  it('reads duration and size from the file, makes a poster and a preview, keeps the original private', async () => {
    const row = await db().video.findUniqueOrThrow({ where: { id: ids.a } })
    expect(row).toMatchObject({ kind: 'PAID', price: 300, width: 320, height: 240, published: true, tags: ['城市', '夜景'] })
    expect(row.durationSec).toBeCloseTo(2, 0)
    expect(Number(row.size)).toBe(clip.length)
    expect(row.fileKey).toMatch(/^private\/videos\/.+\.mp4$/)
    expect(row.previewKey).toMatch(/^video-previews\//)
    // The preview made from a short clip is its first third, not the whole clip.
    const preview = await withScratch(async (dir) => {
      const file = path.join(dir, 'preview.mp4')
      await writeFile(file, (await readStoredFile(row.previewKey!))!)
      return probeVideo(file)
    })
    expect(preview.durationSec).toBeGreaterThan(0)
    expect(preview.durationSec!).toBeLessThan(row.durationSec / 2)
  })

  it('refuses a file that is not a video by its bytes, and a paid item without a price', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')
    expectFail(await createVideo(formOf({ title: 'x', kind: 'free' }, png)), 400, /只支持 MP4、MOV 或 WebM/)
    expectFail(await createVideo(formOf({ title: 'x', kind: 'paid', price: '0' }, clip)), 400, /价格/)
    expectFail(await createVideo(formOf({ title: '标题\u0000', kind: 'free' }, clip)), 400, '请求中含有无效字符（U+0000）')
    expect(await db().video.count()).toBe(4)
  })

  it('a chunked upload: chunks of the wrong size are refused, out of order is fine, a missing one blocks the create', async () => {
    const started = expectOk(await callRoute(uploads.POST, { token: admin.token, body: { size: clip.length } }))
    expect(started.chunks).toBe(1)
    const put = (index: number, bytes: Buffer) =>
      chunk.PUT(new Request('http://localhost/x', { method: 'PUT', headers: { authorization: `Bearer ${admin.token}` }, body: new Uint8Array(bytes) }), {
        params: Promise.resolve({ id: started.id, index: String(index) }),
      })
    expectFail(await createVideo(formOf({ title: 'chunked', kind: 'free', uploadId: started.id })), 400, /分片未上传/)
    expect((await put(0, clip.subarray(0, 10))).status).toBe(400)
    expect((await put(1, clip)).status).toBe(400)
    expect((await put(0, clip)).status).toBe(200)
    const made = expectOk(await createVideo(formOf({ title: 'chunked', kind: 'free', uploadId: started.id })))
    expect(made).toMatchObject({ width: 320, height: 240, size: clip.length, published: false })
    expect(await db().videoUpload.count({ where: { id: started.id } })).toBe(0)
    expectOk(await callRoute(adminVideo.DELETE, { method: 'DELETE', token: admin.token, params: { id: made.id } }))
  })

  it('the size limit of the site settings applies before any byte is sent', async () => {
    expectFail(await callRoute(uploads.POST, { token: admin.token, body: { size: 3000 * 1024 * 1024 } }), 413, /不能超过/)
  })
})

describe('buying', () => {
  it('one item with the balance charges its price once; buying it again is 409 已购买 and charges nothing', async () => {
    const user = await createUser({ balance: 2000 })
    const { order } = await placeOrder(user.token, { type: 'BUY_VIDEO_MATERIAL', videoIds: [ids.a], channel: 'BALANCE' })
    expect(order).toMatchObject({ amount: 300, status: 'SUCCESS' })
    expect(await balance(user.id)).toBe(1700)
    expectFail(await callRoute(orders.POST, { token: user.token, body: { type: 'BUY_VIDEO_MATERIAL', videoIds: [ids.a], channel: 'BALANCE' } }), 409, /已购买/)
    expect(await balance(user.id)).toBe(1700)

    // A batch with the bought one: only the others are charged, once.
    const listed = expectOk(await callRoute(videos.GET, { token: user.token, query: { kind: 'paid' } }))
    const shown = listed.list.filter((v: { id: string; bought: boolean }) => !v.bought).reduce((s: number, v: { price: number }) => s + v.price, 0)
    expect(shown).toBe(1200)
    const batch = await placeOrder(user.token, { type: 'BATCH_BUY_VIDEO_MATERIAL', videoIds: [ids.a, ids.b, ids.c], channel: 'BALANCE' })
    expect(batch.order.amount).toBe(shown)
    expect(await balance(user.id)).toBe(500)
    expect(await db().ledgerEntry.findMany({ where: { reference: { startsWith: `order:${batch.order.id}:` } }, select: { amount: true } })).toEqual([
      { amount: -1200 },
    ])
    expect(await db().videoPurchase.findMany({ where: { userId: user.id }, select: { videoId: true, price: true }, orderBy: { price: 'asc' } })).toEqual([
      { videoId: ids.a, price: 300 },
      { videoId: ids.b, price: 500 },
      { videoId: ids.c, price: 700 },
    ])
    expect(expectOk(await callRoute(mine.GET, { token: user.token })).list).toHaveLength(3)
    // Key for key what the Prisma query it replaced answered. A batch's items share their
    // purchase time: they come newest purchase row first, the same on every read.
    const before = await db().videoPurchase.findMany({
      where: { userId: user.id },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      select: { id: true, createdAt: true, video: { select: VIDEO_ROW } },
    })
    expect(before[0]!.createdAt).toEqual(before[1]!.createdAt)
    expect(before[0]!.id > before[1]!.id).toBe(true)
    const previous = { list: before.map((r) => ({ ...toListItem(r.video, true), boughtAt: r.createdAt.toISOString() })) }
    expect(JSON.stringify(await listMyVideos(user.id))).toBe(JSON.stringify(previous))
    expect(expectOk(await callRoute(mine.GET, { token: user.token }))).toEqual(JSON.parse(JSON.stringify(previous)))
    // Everything bought: nothing left to charge.
    expectFail(
      await callRoute(orders.POST, { token: user.token, body: { type: 'BATCH_BUY_VIDEO_MATERIAL', videoIds: [ids.a, ids.b], channel: 'BALANCE' } }),
      400,
      /都已购买/,
    )
    // The console's report.
    const report = expectOk(await callRoute(purchases.GET, { token: admin.token, query: { user: user.username } }))
    expect(report.total).toBe(3)
    expect(report.perItem.find((p: { videoId: string }) => p.videoId === ids.c)).toMatchObject({ purchases: 1, revenue: 700 })
    // Key for key what the Prisma queries it replaced answered, filters, an empty page and a
    // page past the end included (items with the same revenue in the order of their ids).
    for (const query of [
      {},
      { pageSize: 2 },
      { page: 2, pageSize: 2 },
      { page: 99 },
      { user: user.username },
      { user: user.username.slice(2, 6).toUpperCase() },
      { user: user.id },
      { user: '没有这个人' },
      { videoId: ids.c },
      { videoId: ids.a, user: user.username.slice(1) },
      { videoId: 'no-such-video' },
    ]) {
      const answer = expectOk(await callRoute(purchases.GET, { token: admin.token, query: query as Record<string, string | number> }))
      expect(Object.keys(answer)).toEqual(['list', 'total', 'perItem'])
      expect(JSON.stringify(answer)).toBe(JSON.stringify(await previousPurchases({ page: 1, pageSize: 20, ...query })))
    }
    // Unlike Prisma's contains, % and _ are the characters typed (lib/db/like.ts), as in the other console lists.
    for (const name of ['%', 'user_']) {
      expect(expectOk(await callRoute(purchases.GET, { token: admin.token, query: { user: name } })).list).toEqual([])
    }

    // A refund takes the items back.
    expectOk(await callRoute(refund.POST, { token: admin.token, params: { id: batch.order.id }, body: { reason: '测试退款' } }))
    expect(await db().videoPurchase.count({ where: { userId: user.id } })).toBe(1)
    expect(await balance(user.id)).toBe(1700)
  })

  it('a free item or a missing one cannot be ordered', async () => {
    const user = await createUser({ balance: 2000 })
    expectFail(
      await callRoute(orders.POST, { token: user.token, body: { type: 'BUY_VIDEO_MATERIAL', videoIds: [ids.free], channel: 'BALANCE' } }),
      400,
      /付费素材/,
    )
    expectFail(
      await callRoute(orders.POST, { token: user.token, body: { type: 'BUY_VIDEO_MATERIAL', videoIds: [ids.a, ids.b], channel: 'BALANCE' } }),
      400,
      /批量/,
    )
    expect(await balance(user.id)).toBe(2000)
  })

  it('a batch whose total is more than one order can hold is refused with a clear message, not a database error', async () => {
    const dear = await Promise.all(
      [1, 2, 3].map((i) =>
        db().video.create({
          data: {
            title: `高价素材${i}`,
            kind: 'PAID',
            price: 100_000_000 * 8,
            durationSec: 2,
            width: 320,
            height: 240,
            size: 1,
            fileKey: `private/dear${i}.mp4`,
            posterKey: `dear${i}.jpg`,
            published: true,
          },
        }),
      ),
    )
    const user = await createUser()
    expectFail(
      await callRoute(orders.POST, {
        token: user.token,
        body: { type: 'BATCH_BUY_VIDEO_MATERIAL', videoIds: dear.map((v) => v.id), channel: 'WECHAT', tradeType: 'NATIVE' },
      }),
      400,
      '所选视频总价过高，请分批购买',
    )
    expect(await db().order.count({ where: { userId: user.id } })).toBe(0)
  })

  it('a WeChat notification replayed 20 times at once grants the batch once', async () => {
    const user = await createUser()
    const { order } = await placeOrder(user.token, { type: 'BATCH_BUY_VIDEO_MATERIAL', videoIds: [ids.b, ids.c], channel: 'WECHAT', tradeType: 'NATIVE' })
    expect(order.amount).toBe(1200)
    await world.wechat.pay(order.outTradeNo, { notify: false })
    const n = world.wechat.notificationFor(order.outTradeNo)
    const replies = await Promise.all(Array.from({ length: 20 }, () => post(n)))
    expect(replies.every((r) => r.status === 204)).toBe(true)
    expect(await db().videoPurchase.count({ where: { userId: user.id } })).toBe(2)
    expect(await db().chargeRecord.count({ where: { orderId: order.id } })).toBe(1)
  })
})

describe('the originals', () => {
  it('a paid original answers 403/404 to anyone who did not buy it, by any URL', async () => {
    const buyer = await createUser({ balance: 1000 })
    const other = await createUser()
    await placeOrder(buyer.token, { type: 'BUY_VIDEO_MATERIAL', videoIds: [ids.b], channel: 'BALANCE' })
    const { fileKey } = await db().video.findUniqueOrThrow({ where: { id: ids.b } })

    // The public route, plainly or as a download.
    const filesGet = (key: string, query = '') =>
      files.GET(new Request(`http://localhost/files/${key}${query}`), { params: Promise.resolve({ key: key.split('/') }) })
    expect((await filesGet(fileKey)).status).toBe(404)
    expect((await filesGet(fileKey, '?download=x.mp4')).status).toBe(404)

    // The API, signed out and as someone who did not buy it.
    expect((await callRoute(download.GET, { params: { id: ids.b } })).status).toBe(401)
    expectFail(await callRoute(download.GET, { token: other.token, params: { id: ids.b } }), 403, /购买后/)
    const seen = expectOk(await callRoute(videoById.GET, { token: other.token, params: { id: ids.b } }))
    expect(seen.playUrl).toBeUndefined()
    expect(JSON.stringify(seen)).not.toContain('private/')
    expect(JSON.stringify(expectOk(await callRoute(videos.GET, { query: { kind: 'paid' } })))).not.toContain('private/')

    // The buyer's link works; reused for another item, or tampered with, it does not.
    const link = expectOk(await callRoute(videoById.GET, { token: buyer.token, params: { id: ids.b } })).playUrl as string
    const ok = await follow(link)
    expect(ok.status).toBe(200)
    expect(Buffer.from(await ok.arrayBuffer()).equals(clip)).toBe(true)
    expect((await follow(link.replace(ids.b, ids.c))).status).toBe(403)
    expect((await follow(link.replace(/s=[0-9a-f]{4}/, 's=0000'))).status).toBe(403)
    expect((await follow(link.replace(/u=[^&]+/, `u=${other.id}`))).status).toBe(403)
    expect((await follow(`/api/videos/${ids.b}/file`)).status).toBe(403)
    // An id no row can have (here with U+0000, which PostgreSQL refuses) is a bad link too, not a 500.
    for (const id of ['a\u0000b', 'x'.repeat(200)])
      expect((await videoFile.GET(new Request(`http://localhost${link}`), { params: Promise.resolve({ id }) })).status).toBe(403)
  })

  it('the download redirects to a signed link that answers ranges with 206 and the right bytes', async () => {
    const user = await createUser()
    const res = await download.GET(new Request('http://localhost/x', { headers: { authorization: `Bearer ${user.token}` } }), {
      params: Promise.resolve({ id: ids.free }),
    })
    expect(res.status).toBe(302)
    const location = res.headers.get('location')!
    const ranged = await follow(location, { range: 'bytes=100-1099' })
    expect(ranged.status).toBe(206)
    expect(ranged.headers.get('content-range')).toBe(`bytes 100-1099/${clip.length}`)
    expect(ranged.headers.get('content-disposition')).toMatch(/^attachment; filename="video-.+\.mp4"$/)
    expect(Buffer.from(await ranged.arrayBuffer()).equals(clip.subarray(100, 1100))).toBe(true)
    const tail = await follow(location, { range: 'bytes=-50' })
    expect(tail.status).toBe(206)
    expect(Buffer.from(await tail.arrayBuffer()).equals(clip.subarray(clip.length - 50))).toBe(true)
    expect((await follow(location, { range: `bytes=${clip.length}-` })).status).toBe(416)
  })

  it('a signed link stops working after it expires (VIDEO_LINK_TTL_SECONDS)', async () => {
    await configure(admin.token, { VIDEO_LINK_TTL_SECONDS: 5 })
    expectFail(
      await callRoute((await import('@/app/api/site-config/[name]/route')).PATCH, {
        method: 'PATCH',
        token: admin.token,
        params: { name: 'VIDEO_LINK_TTL_SECONDS' },
        body: { value: 4 },
      }),
      400,
    )
    const user = await createUser()
    const link = expectOk(await callRoute(videoById.GET, { token: user.token, params: { id: ids.free } })).playUrl as string
    expect(Number(new URL(link, 'http://localhost').searchParams.get('e')) - Date.now() / 1000).toBeLessThanOrEqual(5.01)
    expect((await follow(link)).status).toBe(200)
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      vi.setSystemTime(Date.now() + 6_000)
      expect((await follow(link)).status).toBe(403)
    } finally {
      vi.useRealTimers()
    }
    await configure(admin.token, { VIDEO_LINK_TTL_SECONDS: 600 })
  })
})

describe('the operator takes items down', () => {
  const paidItem = async (title: string) => expectOk(await createVideo(formOf({ title, kind: 'paid', price: '200', published: 'true' }, clip))).id as string
  const remove = (id: string) => callRoute(adminVideo.DELETE, { method: 'DELETE', token: admin.token, params: { id } })

  it('an item taken down after its purchase still opens for them, with its player and download; for anyone else it is gone', async () => {
    const id = await paidItem('下架前已购')
    const buyer = await createUser({ balance: 1000 })
    const other = await createUser()
    await placeOrder(buyer.token, { type: 'BUY_VIDEO_MATERIAL', videoIds: [id], channel: 'BALANCE' })
    expect(expectOk(await remove(id))).toEqual({ deleted: false })

    expect(expectOk(await callRoute(mine.GET, { token: buyer.token })).list.map((v: { id: string }) => v.id)).toEqual([id])
    const seen = expectOk(await callRoute(videoById.GET, { token: buyer.token, params: { id } }))
    expect(seen).toMatchObject({ id, bought: true })
    expect((await follow(seen.playUrl)).status).toBe(200)
    expect((await follow(seen.downloadUrl)).status).toBe(200)
    expectFail(await callRoute(videoById.GET, { token: other.token, params: { id } }), 404, /已下架/)
    expectFail(await callRoute(videoById.GET, { params: { id } }), 404, /已下架/)
    expect(JSON.stringify(expectOk(await callRoute(videos.GET, { token: buyer.token })).list)).not.toContain(id)
  })

  it('删除 only unpublishes an item a pending order names, so paying that order still grants it', async () => {
    const id = await paidItem('待支付时删除')
    const user = await createUser()
    const { order } = await placeOrder(user.token, { type: 'BUY_VIDEO_MATERIAL', videoIds: [id], channel: 'WECHAT', tradeType: 'NATIVE' })
    expect(order.status).toBe('PENDING')
    expect(expectOk(await remove(id))).toEqual({ deleted: false })
    expect(await db().video.findUnique({ where: { id }, select: { published: true } })).toEqual({ published: false })

    await world.wechat.pay(order.outTradeNo, { notify: false })
    expect((await post(world.wechat.notificationFor(order.outTradeNo))).status).toBe(204)
    expect(await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { status: true } })).toEqual({ status: 'SUCCESS' })
    expect(await db().videoPurchase.count({ where: { userId: user.id, videoId: id } })).toBe(1)
  })

  it('an item deleted in the moment between pricing an order and storing it: the payment settles, flagged for a refund', async () => {
    const id = await paidItem('下单瞬间删除')
    const kept = await paidItem('同单保留')
    const user = await createUser()
    const { order } = await placeOrder(user.token, { type: 'BATCH_BUY_VIDEO_MATERIAL', videoIds: [id, kept], channel: 'WECHAT', tradeType: 'NATIVE' })
    // What 删除 does when it finds no order naming the item yet (the order was priced, not yet stored).
    await db().video.delete({ where: { id } })
    await world.wechat.pay(order.outTradeNo, { notify: false })
    expect((await post(world.wechat.notificationFor(order.outTradeNo))).status).toBe(204)
    expect(await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { status: true, flag: true } })).toEqual({
      status: 'SUCCESS',
      flag: '其中 1 个视频在付款前已被删除，未能交付，请核实后退款',
    })
    expect(await db().videoPurchase.findMany({ where: { userId: user.id }, select: { videoId: true } })).toEqual([{ videoId: kept }])
    expectOk(await callRoute(refund.POST, { token: admin.token, params: { id: order.id }, body: { reason: '商品已删除' } }))
    expect(await db().videoPurchase.count({ where: { userId: user.id } })).toBe(0)
  })

  it('one item paid through two payment codes: the second order is flagged, and a refund of either leaves it with the other', async () => {
    const id = await paidItem('付了两次')
    const user = await createUser()
    const codes = [
      (await placeOrder(user.token, { type: 'BUY_VIDEO_MATERIAL', videoIds: [id], channel: 'WECHAT', tradeType: 'NATIVE' })).order,
      (await placeOrder(user.token, { type: 'BUY_VIDEO_MATERIAL', videoIds: [id], channel: 'WECHAT', tradeType: 'NATIVE' })).order,
    ]
    for (const order of codes) {
      await world.wechat.pay(order.outTradeNo, { notify: false })
      expect((await post(world.wechat.notificationFor(order.outTradeNo))).status).toBe(204)
    }
    const [first, second] = await Promise.all(codes.map((o) => db().order.findUniqueOrThrow({ where: { id: o.id }, select: { status: true, flag: true } })))
    expect(first).toEqual({ status: 'SUCCESS', flag: null })
    expect(second).toEqual({ status: 'SUCCESS', flag: '其中 1 个视频此前已由该用户的其他订单购买，本订单重复付款，请核实后退款' })
    const purchase = () => db().videoPurchase.findMany({ where: { userId: user.id, videoId: id }, select: { orderId: true } })
    expect(await purchase()).toEqual([{ orderId: codes[0]!.id }])
    // The first one refunded: the second order paid for the item too, so it stays theirs.
    expectOk(await callRoute(refund.POST, { token: admin.token, params: { id: codes[0]!.id }, body: { reason: '重复付款' } }))
    expect(await purchase()).toEqual([{ orderId: codes[1]!.id }])
    expectOk(await callRoute(refund.POST, { token: admin.token, params: { id: codes[1]!.id }, body: { reason: '不要了' } }))
    expect(await purchase()).toEqual([])
  })

  it('so does an order already closed (money may still arrive after the close); an item nobody ordered is deleted', async () => {
    const id = await paidItem('关单后删除')
    const user = await createUser()
    const { order } = await placeOrder(user.token, { type: 'BUY_VIDEO_MATERIAL', videoIds: [id], channel: 'WECHAT', tradeType: 'NATIVE' })
    await db().order.update({ where: { id: order.id }, data: { status: 'CANCELED', closedAt: new Date() } })
    expect(expectOk(await remove(id))).toEqual({ deleted: false })
    await world.wechat.pay(order.outTradeNo, { notify: false })
    expect((await post(world.wechat.notificationFor(order.outTradeNo))).status).toBe(204)
    expect(await db().videoPurchase.count({ where: { userId: user.id, videoId: id } })).toBe(1)

    const unordered = await paidItem('无人下单')
    expect(expectOk(await remove(unordered))).toEqual({ deleted: true })
    expect(await db().video.count({ where: { id: unordered } })).toBe(0)
  })
})

describe('the operator edits items', () => {
  it('the 上架 switch changes only 上架: a paid item keeps its price, description and tags', async () => {
    const made = expectOk(
      await createVideo(formOf({ title: '开关', description: '海边日落', tags: '海边,日落', kind: 'paid', price: '400', published: 'true' }, clip)),
    )
    const patch = (body: object) => callRoute(adminVideo.PATCH, { method: 'PATCH', token: admin.token, params: { id: made.id }, body })
    expect(expectOk(await patch({ published: false }))).toMatchObject({ published: false, price: 400, kind: 'paid' })
    expect(expectOk(await patch({ published: true }))).toMatchObject({ published: true, price: 400 })
    expect(await db().video.findUniqueOrThrow({ where: { id: made.id }, select: { description: true, tags: true } })).toEqual({
      description: '海边日落',
      tags: ['海边', '日落'],
    })
    expect(expectOk(await patch({ tags: '日落，海边，日落' }))).toMatchObject({ price: 400 })
    expect((await db().video.findUniqueOrThrow({ where: { id: made.id } })).tags).toEqual(['日落', '海边'])
  })

  it('上架 sent while another edit makes the item paid keeps that price: edits of one item take turns', async () => {
    const made = expectOk(await createVideo(formOf({ title: '免费草稿', kind: 'free', published: 'false' }, clip)))
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    // Another tab's edit to 付费 990, committed only after the switch has been sent.
    const pricing = db().$transaction(async (tx) => {
      await tx.video.update({ where: { id: made.id }, data: { kind: 'PAID', price: 990 } })
      await held
    })
    await new Promise((r) => setTimeout(r, 100))
    const publishing = callRoute(adminVideo.PATCH, { method: 'PATCH', token: admin.token, params: { id: made.id }, body: { published: true } })
    await new Promise((r) => setTimeout(r, 200))
    release()
    await pricing
    expect(expectOk(await publishing)).toMatchObject({ published: true, kind: 'paid', price: 990 })
    expect(await db().video.findUniqueOrThrow({ where: { id: made.id }, select: { kind: true, price: true } })).toEqual({ kind: 'PAID', price: 990 })
  })
})

describe('stored files', () => {
  const stored = (key: string) => existsSync(path.join(process.env.DATA_DIR!, 'files', key))
  const storedCount = async () => {
    let count = 0
    for (const dir of ['private/videos', 'video-posters', 'video-previews'])
      count += (await readdir(path.join(process.env.DATA_DIR!, 'files', dir)).catch(() => [])).length
    return count
  }

  it('deleting an item nobody bought removes its original, poster and preview', async () => {
    const made = expectOk(await createVideo(formOf({ title: '删除连同文件', kind: 'free' }, clip)))
    const row = await db().video.findUniqueOrThrow({ where: { id: made.id } })
    const keys = [row.fileKey, row.posterKey, row.previewKey!]
    expect(keys.map(stored)).toEqual([true, true, true])
    expect(expectOk(await callRoute(adminVideo.DELETE, { method: 'DELETE', token: admin.token, params: { id: made.id } }))).toEqual({ deleted: true })
    expect(keys.map(stored)).toEqual([false, false, false])
  })

  it('a create whose transaction fails leaves no stored file, from a file or from a chunked upload', async () => {
    const { partFile } = await import('@/lib/videos/chunked-upload')
    await db().$executeRawUnsafe(`ALTER TABLE "Video" ADD CONSTRAINT "test_refused_title" CHECK ("title" <> '被拒绝') NOT VALID`)
    try {
      const [files, videos] = [await storedCount(), await db().video.count()]
      expectFail(await createVideo(formOf({ title: '被拒绝', kind: 'free' }, clip)), 500, '系统错误')
      expect(await storedCount()).toBe(files)

      const started = expectOk(await callRoute(uploads.POST, { token: admin.token, body: { size: clip.length } }))
      const put = await chunk.PUT(
        new Request('http://localhost/x', { method: 'PUT', headers: { authorization: `Bearer ${admin.token}` }, body: new Uint8Array(clip) }),
        { params: Promise.resolve({ id: started.id, index: '0' }) },
      )
      expect(put.status).toBe(200)
      expectFail(await createVideo(formOf({ title: '被拒绝', kind: 'free', uploadId: started.id })), 500, '系统错误')
      expect(await storedCount()).toBe(files)
      expect(await db().video.count()).toBe(videos)
      // Its file went into the store and out again: the upload is gone, and a retry is told to upload again.
      expect(existsSync(partFile(started.id))).toBe(false)
      expectFail(await createVideo(formOf({ title: '重试', kind: 'free', uploadId: started.id })), 404, /重新上传/)
    } finally {
      await db().$executeRawUnsafe(`ALTER TABLE "Video" DROP CONSTRAINT "test_refused_title"`)
    }
  })
})

describe('a create that fails before the original is stored', () => {
  it('keeps the chunked upload, so the operator can try again without sending the file again', async () => {
    const { partFile } = await import('@/lib/videos/chunked-upload')
    const started = expectOk(await callRoute(uploads.POST, { token: admin.token, body: { size: clip.length } }))
    const put = await chunk.PUT(
      new Request('http://localhost/x', { method: 'PUT', headers: { authorization: `Bearer ${admin.token}` }, body: new Uint8Array(clip) }),
      { params: Promise.resolve({ id: started.id, index: '0' }) },
    )
    expect(put.status).toBe(200)
    // The posters' folder is not writable (a file stands in its place): storing the poster fails.
    const posters = path.join(process.env.DATA_DIR!, 'files', 'video-posters')
    await rename(posters, `${posters}.kept`)
    await writeFile(posters, '')
    try {
      expect((await createVideo(formOf({ title: '封面存不下', kind: 'free', uploadId: started.id }))).status).toBe(500)
    } finally {
      await rm(posters)
      await rename(`${posters}.kept`, posters)
    }
    expect(existsSync(partFile(started.id))).toBe(true)
    const made = expectOk(await createVideo(formOf({ title: '再试一次', kind: 'free', uploadId: started.id })))
    expect(made).toMatchObject({ size: clip.length })
    expectOk(await callRoute(adminVideo.DELETE, { method: 'DELETE', token: admin.token, params: { id: made.id } }))
  })
})

describe('abandoned uploads', () => {
  it('are pruned after a day with their part files', async () => {
    const started = expectOk(await callRoute(uploads.POST, { token: admin.token, body: { size: 100 } }))
    const { partFile, pruneStaleUploads } = await import('@/lib/videos/chunked-upload')
    const { existsSync } = await import('node:fs')
    expect(existsSync(partFile(started.id))).toBe(true)
    expect(await pruneStaleUploads()).toBe(0)
    expect(await pruneStaleUploads(new Date(Date.now() + 25 * 3600_000))).toBeGreaterThanOrEqual(1)
    expect(existsSync(partFile(started.id))).toBe(false)
    expect(await db().videoUpload.count({ where: { id: started.id } })).toBe(0)
  })
})

/** The Prisma queries listVideoPurchases made before it became one statement (as they were). */
async function previousPurchases(q: { page: number; pageSize: number; videoId?: string; user?: string }) {
  const where = {
    ...(q.videoId ? { videoId: q.videoId } : {}),
    ...(q.user ? { user: { OR: [{ id: q.user }, { username: { contains: q.user } }] } } : {}),
  }
  const [rows, total, perItem] = await Promise.all([
    db().videoPurchase.findMany({
      where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: (q.page - 1) * q.pageSize,
      take: q.pageSize,
      select: {
        id: true,
        price: true,
        createdAt: true,
        orderId: true,
        user: { select: { id: true, username: true } },
        video: { select: { id: true, title: true } },
      },
    }),
    db().videoPurchase.count({ where }),
    db().videoPurchase.groupBy({
      by: ['videoId'],
      _count: { _all: true },
      _sum: { price: true },
      orderBy: [{ _sum: { price: 'desc' } }, { videoId: 'asc' }],
      take: 50,
    }),
  ])
  const titles = new Map(
    (await db().video.findMany({ where: { id: { in: perItem.map((p) => p.videoId) } }, select: { id: true, title: true } })).map((v) => [v.id, v.title]),
  )
  return {
    list: rows.map((r) => ({ id: r.id, price: r.price, createdAt: r.createdAt.toISOString(), orderId: r.orderId, user: r.user, video: r.video })),
    total,
    perItem: perItem.map((p) => ({ videoId: p.videoId, title: titles.get(p.videoId) ?? '', purchases: p._count._all, revenue: p._sum.price ?? 0 })),
  }
}
