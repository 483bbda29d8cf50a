// Video material with S3 storage (docs/PRODUCT.md §18): the original is streamed into the bucket
// under private/, poster and preview get public URLs, and the player and downloads use the
// bucket's presigned GETs, which live VIDEO_LINK_TTL_SECONDS; the console can upload straight to
// the bucket with a presigned PUT.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import * as adminVideos from '@/app/api/admin/videos/route'
import * as adminVideo from '@/app/api/admin/videos/[id]/route'
import * as videoById from '@/app/api/videos/[id]/route'
import * as download from '@/app/api/videos/[id]/download/route'
import * as videoFile from '@/app/api/videos/[id]/file/route'
import * as uploads from '@/app/api/admin/videos/uploads/route'
import { db } from '@/lib/db'
import { runFfmpeg, withScratch } from '@/lib/generation/video-file'
import { putLocal } from '@/lib/storage/local-files'
import { readStoredFile } from '@/lib/storage/storage'
import { startFakeS3 } from '../fakes/s3'
import { callRoute, createUser } from '../helpers/call-route'
import { expectFail, expectOk } from '../helpers/expect-response'

const KEYS = { bucket: 'aiimg', accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' }
let s3: Awaited<ReturnType<typeof startFakeS3>>

beforeAll(async () => {
  s3 = await startFakeS3(KEYS)
  Object.assign(process.env, {
    S3_BUCKET: KEYS.bucket,
    S3_ENDPOINT: s3.url,
    S3_ACCESS_KEY_ID: KEYS.accessKeyId,
    S3_SECRET_ACCESS_KEY: KEYS.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
    S3_PUBLIC_URL: 'https://cdn.example.com/aiimg',
  })
})
afterAll(() => s3.close())

it('stores the original privately in the bucket and hands out presigned links only to those who may have it', async () => {
  const clip = await withScratch(async (dir) => {
    const out = path.join(dir, 'clip.mp4')
    await runFfmpeg([
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=160x120:rate=12:duration=1',
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
  const admin = await createUser({ role: 'ADMIN' })
  const form = new FormData()
  for (const [k, v] of Object.entries({ title: '云端素材', kind: 'paid', price: '100', published: 'true' })) form.set(k, v)
  form.set('file', new Blob([new Uint8Array(clip)]), 'c.mp4')
  const res = await adminVideos.POST(
    new Request('http://localhost/api/admin/videos', { method: 'POST', headers: { authorization: `Bearer ${admin.token}` }, body: form }),
  )
  const made = (await res.json()).data
  expect(res.status).toBe(200)
  expect(made.posterUrl).toMatch(/^https:\/\/cdn\.example\.com\/aiimg\/video-posters\//)

  const row = await db().video.findUniqueOrThrow({ where: { id: made.id } })
  expect(s3.objects.get(row.fileKey)?.bytes.equals(clip)).toBe(true)
  // Private: no public cache header on the original.
  expect(s3.objects.get(row.fileKey)?.cacheControl).toBeNull()

  const buyer = await createUser()
  expect((await callRoute(download.GET, { token: buyer.token, params: { id: made.id } })).status).toBe(403)
  expect(expectOk(await callRoute(videoById.GET, { token: buyer.token, params: { id: made.id } })).playUrl).toBeUndefined()
  await db().videoPurchase.create({ data: { userId: buyer.id, videoId: made.id, orderId: (await anyOrder(buyer.id)).id, price: 100 } })
  const detail = expectOk(await callRoute(videoById.GET, { token: buyer.token, params: { id: made.id } }))
  const play = new URL(detail.playUrl)
  expect(play.origin).toBe(new URL(s3.url).origin)
  expect(play.searchParams.get('X-Amz-Expires')).toBe('600')
  const fetched = await fetch(play)
  expect(fetched.status).toBe(200)
  expect(Buffer.from(await fetched.arrayBuffer()).equals(clip)).toBe(true)
  expect(new URL(detail.downloadUrl).searchParams.get('response-content-disposition')).toMatch(/^attachment; filename="video-.+\.mp4"$/)
})

async function anyOrder(userId: string) {
  return db().order.create({
    data: {
      outTradeNo: `T${Date.now()}`,
      userId,
      type: 'BUY_VIDEO_MATERIAL',
      grant: {},
      subject: 'x',
      amount: 100,
      channel: 'BALANCE',
      status: 'SUCCESS',
      expiresAt: new Date(),
    },
  })
}

it('uploads straight to the bucket: a presigned PUT, then the create call reads the object there', async () => {
  const clip = await withScratch(async (dir) => {
    const out = path.join(dir, 'clip.mp4')
    await runFfmpeg([
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=160x120:rate=12:duration=2',
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
  const admin = await createUser({ role: 'ADMIN' })
  expectFail(await callRoute(uploads.POST, { token: admin.token, body: { size: clip.length, name: 'a.avi' } }), 400, /只支持/)
  const started = expectOk(await callRoute(uploads.POST, { token: admin.token, body: { size: clip.length, name: 'Clip.MP4' } }))
  expect(started.chunks).toBe(0)
  const put = await fetch(started.direct.url, { method: 'PUT', headers: { 'content-type': started.direct.contentType }, body: new Uint8Array(clip) })
  expect(put.status).toBe(200)
  const create = () => {
    const form = new FormData()
    for (const [k, v] of Object.entries({ title: '直传素材', kind: 'free', uploadId: started.id, posterSecond: '1' })) form.set(k, v)
    return adminVideos.POST(
      new Request('http://localhost/api/admin/videos', { method: 'POST', headers: { authorization: `Bearer ${admin.token}` }, body: form }),
    )
  }
  // Sent twice at once (a double click past the page): one video takes the object, the other is refused.
  const answers = await Promise.all([create(), create()])
  expect(answers.map((a) => a.status).sort()).toEqual([200, 400])
  const res = answers.find((a) => a.status === 200)!
  const made = (await res.json()).data
  expect(await db().video.count({ where: { fileKey: (await db().video.findUniqueOrThrow({ where: { id: made.id } })).fileKey } })).toBe(1)
  expect(made).toMatchObject({ width: 160, height: 120, size: clip.length })
  const row = await db().video.findUniqueOrThrow({ where: { id: made.id } })
  expect(row.fileKey).toMatch(/^private\/videos\/.+\.mp4$/)
  expect(s3.objects.get(row.fileKey)?.bytes.equals(clip)).toBe(true)
  expect(s3.objects.has(row.posterKey)).toBe(true)
  expect(await db().videoUpload.count({ where: { id: started.id } })).toBe(0)

  // Deleted (nobody ordered it): its objects leave the bucket with the row.
  expectOk(await callRoute(adminVideo.DELETE, { method: 'DELETE', token: admin.token, params: { id: made.id } }))
  expect([s3.objects.has(row.fileKey), s3.objects.has(row.posterKey)]).toEqual([false, false])
})

it('an original stored on disk before the bucket was configured is still played and downloaded, through the signed link', async () => {
  const bytes = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(64, 7)])
  const fileKey = `private/videos/before-s3-${Date.now()}.mp4`
  await putLocal(fileKey, bytes)
  const video = await db().video.create({
    data: {
      title: '本地旧素材',
      tags: [],
      kind: 'PAID',
      price: 100,
      durationSec: 1,
      width: 160,
      height: 120,
      size: BigInt(bytes.length),
      fileKey,
      posterKey: 'video-posters/x.webp',
      published: true,
    },
  })
  const buyer = await createUser()
  await db().videoPurchase.create({ data: { userId: buyer.id, videoId: video.id, orderId: (await anyOrder(buyer.id)).id, price: 100 } })
  const detail = expectOk(await callRoute(videoById.GET, { token: buyer.token, params: { id: video.id } }))
  const play = new URL(detail.playUrl, 'http://localhost')
  expect(play.pathname).toBe(`/api/videos/${video.id}/file`)
  const served = await videoFile.GET(new Request(play), { params: Promise.resolve({ id: video.id }) })
  expect(served.status).toBe(200)
  expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true)
  expect(new URL(detail.downloadUrl, 'http://localhost').pathname).toBe(`/api/videos/${video.id}/file`)
  // Read back in the process too (an uploaded frame a task sends to its backend), from disk.
  expect((await readStoredFile(fileKey))?.equals(bytes)).toBe(true)
})
