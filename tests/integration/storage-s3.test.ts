import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as tasksRoute from '@/app/api/tasks/route'
import * as filesRoute from '@/app/files/[...key]/route'
import { db } from '@/lib/db'
import { putFile, readStoredFile } from '@/lib/storage/storage'
import { createUpload } from '@/lib/uploads/create-upload'
import { startFakeS3 } from '../fakes/s3'
import { callRoute, createUser } from '../helpers/call-route'
import { first } from '../helpers/present'
import { createModel, drainQueue } from '../helpers/tasks'

const KEYS = { bucket: 'aiimg', accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' }
let s3: Awaited<ReturnType<typeof startFakeS3>>

// This file's process stores files in the fake bucket (env is read at first use).
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

describe('S3-compatible storage', () => {
  it('keeps uploads and generated images in the bucket, with signed requests and long cache headers', async () => {
    await createModel()
    const user = await createUser({ points: 100 })
    const upload = await createUpload(
      user.id,
      await sharp({ create: { width: 40, height: 30, channels: 3, background: '#123456' } })
        .png()
        .toBuffer(),
    )
    expect(upload.url).toMatch(/^https:\/\/cdn\.example\.com\/aiimg\/uploads\/.+\.png$/)
    const stored = await db().uploadedImage.findUniqueOrThrow({ where: { id: upload.id } })
    expect((await sharp((await readStoredFile(stored.storageKey))!).metadata()).width).toBe(40)

    const res = await callRoute(tasksRoute.POST, {
      token: user.token,
      body: { type: 'SD_TEXT2IMG', params: { prompt: '云上的城堡', width: 128, height: 128 } },
    })
    await drainQueue()
    const task = await db().task.findUniqueOrThrow({ where: { id: res.body.data.id } })
    expect(task.status).toBe('SUCCESS')
    const image = first(task.results as Array<{ url: string; thumbUrl: string }>)
    expect(image.url).toMatch(/^https:\/\/cdn\.example\.com\/aiimg\/results\/\d{6}\/.+\.png$/)
    const object = s3.objects.get(image.url.replace('https://cdn.example.com/aiimg/', ''))!
    expect(object).toMatchObject({ contentType: 'image/png', cacheControl: 'public, max-age=31536000, immutable' })
    expect(s3.objects.get(image.thumbUrl.replace('https://cdn.example.com/aiimg/', ''))?.contentType).toBe('image/webp')
  })

  it('下载 saves the image: /files/<key>?download= sends the browser to a presigned GET that S3 answers as an attachment', async () => {
    const user = await createUser({ points: 100 })
    const res = await callRoute(tasksRoute.POST, { token: user.token, body: { type: 'SD_TEXT2IMG', params: { prompt: '下载', width: 128, height: 128 } } })
    await drainQueue()
    const task = await db().task.findUniqueOrThrow({ where: { id: res.body.data.id } })
    const image = first(task.results as Array<{ url: string; downloadUrl: string }>)
    const key = image.url.replace('https://cdn.example.com/aiimg/', '')
    expect(image.downloadUrl).toBe(`/files/${key}?download=${task.id}-1.png`)

    const link = new URL(image.downloadUrl, 'http://site.test')
    const redirect = await filesRoute.GET(new Request(link), { params: Promise.resolve({ key: link.pathname.split('/').slice(2) }) })
    expect(redirect.status).toBe(302)
    const location = redirect.headers.get('location')!
    expect(location.startsWith(`${s3.url}/aiimg/${key}?`)).toBe(true)
    const saved = await fetch(location)
    expect(saved.status).toBe(200)
    expect(saved.headers.get('content-disposition')).toBe(`attachment; filename="${task.id}-1.png"`)
    expect(Buffer.from(await saved.arrayBuffer()).equals(s3.objects.get(key)!.bytes)).toBe(true)

    // The signature covers the disposition: asking for another name is refused.
    const renamed = new URL(location)
    renamed.searchParams.set('response-content-disposition', 'attachment; filename="other.png"')
    expect((await fetch(renamed)).status).toBe(403)
  })

  it('a download name that could break the header falls back to the key’s own file name', async () => {
    await putFile('results/202611/plain-name.png', Buffer.from('png'))
    const res = await filesRoute.GET(new Request('http://site.test/files/results/202611/plain-name.png?download=a"%0d%0aSet-Cookie:x.png'), {
      params: Promise.resolve({ key: ['results', '202611', 'plain-name.png'] }),
    })
    expect(res.status).toBe(302)
    expect(new URL(res.headers.get('location')!).searchParams.get('response-content-disposition')).toBe('attachment; filename="plain-name.png"')
  })

  it('an endpoint at a link-local or metadata address is refused before any request', async () => {
    const { env } = await import('@/lib/env')
    const before = env().S3_ENDPOINT
    ;(env() as { S3_ENDPOINT?: string }).S3_ENDPOINT = 'http://169.254.169.254'
    try {
      await expect(putFile('results/202611/never.png', Buffer.from('png'))).rejects.toThrow(/元数据地址/)
      await expect(readStoredFile('results/202611/never.png')).rejects.toThrow(/元数据地址/)
    } finally {
      ;(env() as { S3_ENDPOINT?: string }).S3_ENDPOINT = before
    }
  })

  it('a bucket refusing our writes fails the task with a refund', async () => {
    // The environment is read once per process; change the parsed copy.
    const { env } = await import('@/lib/env')
    ;(env() as { S3_SECRET_ACCESS_KEY?: string }).S3_SECRET_ACCESS_KEY = 'not-the-right-secret'
    const user = await createUser({ points: 10 })
    const res = await callRoute(tasksRoute.POST, { token: user.token, body: { type: 'SD_TEXT2IMG', params: { prompt: 'x', width: 128, height: 128 } } })
    await drainQueue()
    expect(await db().task.findUniqueOrThrow({ where: { id: res.body.data.id } })).toMatchObject({ status: 'FAIL', errorCode: 'STORAGE_FAILED' })
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).points).toBe(10)
    expect(s3.calls.some((c) => c.method === 'PUT')).toBe(true)
  })
})
