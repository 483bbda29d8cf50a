// POST /api/uploads: a good image is stored re-encoded; too large (by Content-Length or
// streamed without one) is a 413; not an image, or a decompression bomb is a clear 400; and
// nothing is stored. Uploads and avatar changes are limited per user (429); a replaced
// avatar's stored file is removed.
import { existsSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { crc32, deflateSync } from 'node:zlib'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import * as uploadsRoute from '@/app/api/uploads/route'
import * as avatarRoute from '@/app/api/users/avatar/route'
import { db } from '@/lib/db'
import { putFile, readStoredFile } from '@/lib/storage/storage'
import { MAX_UPLOAD_BYTES } from '@/lib/uploads/image-upload'
import { createUser } from '../helpers/call-route'

let token: string
beforeAll(async () => {
  token = (await createUser()).token
})

const BOUNDARY = '----aiimg-test-boundary'

function multipart(filename: string, type: string, bytes: Buffer): Buffer {
  const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`
  return Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)])
}

async function post(body: BodyInit | Buffer, headers: Record<string, string> = {}) {
  const req = new Request('http://localhost/api/uploads', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'x-client-ip': '10.0.0.1', ...headers },
    body: Buffer.isBuffer(body) ? new Uint8Array(body) : body,
    duplex: 'half',
  } as RequestInit)
  const res = await uploadsRoute.POST(req, { params: Promise.resolve({}) })
  return {
    status: res.status,
    body: (await res.json()) as { success: boolean; data: { id: string; url: string; width: number; height: number }; errMessage?: string },
  }
}

/** Files in local storage's uploads folder (DATA_DIR/files/uploads). */
async function storedUploads(): Promise<number> {
  const dir = path.join(process.env.DATA_DIR!, 'files', 'uploads')
  return (await readdir(dir, { recursive: true }).catch(() => [])).length
}

async function expectRefused(send: () => Promise<{ status: number; body: { success: boolean; errMessage?: string } }>, message: string, status = 400) {
  const [rows, files] = [await db().uploadedImage.count(), await storedUploads()]
  const res = await send()
  expect(res.status).toBe(status)
  expect(res.body).toMatchObject({ success: false, errMessage: message })
  expect(await db().uploadedImage.count()).toBe(rows)
  expect(await storedUploads()).toBe(files)
}

/** A 1-bit greyscale PNG of width×height, all black: a few kilobytes that decode to width×height pixels. */
function pixelBomb(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type), data])))
    return Buffer.concat([length, Buffer.from(type), data, crc])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([1, 0, 0, 0, 0], 8) // bit depth 1, greyscale, deflate, no filter, no interlace
  const rows = deflateSync(Buffer.alloc((1 + Math.ceil(width / 8)) * height), { level: 9 })
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', rows),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

describe('POST /api/uploads', () => {
  it('stores a good PNG re-encoded under a server-made name and answers its id, url and size', async () => {
    const png = await sharp({ create: { width: 120, height: 80, channels: 3, background: '#2288aa' } })
      .png()
      .toBuffer()
    const files = await storedUploads()
    const res = await post(multipart('../../etc/passwd.png', 'image/png', png))
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ width: 120, height: 80 })
    expect(res.body.data.url).toMatch(/^\/files\/uploads\/[a-z0-9]+-[A-Za-z0-9]+\.png$/)
    const row = await db().uploadedImage.findUniqueOrThrow({ where: { id: res.body.data.id } })
    const stored = await readStoredFile(row.storageKey)
    expect(await sharp(stored!).metadata()).toMatchObject({ format: 'png', width: 120, height: 80 })
    expect(await storedUploads()).toBe(files + 1)
  })

  it('refuses a body over 10MB by its Content-Length', async () => {
    const body = multipart('big.png', 'image/png', Buffer.alloc(MAX_UPLOAD_BYTES + 200 * 1024, 1))
    await expectRefused(() => post(body, { 'content-length': String(body.length) }), '文件不能超过 10MB', 413)
  })

  it('refuses a chunked body without a length once it passes 10MB, without reading the rest', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 7)
    let pulled = 0
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled === 0)
          controller.enqueue(
            new TextEncoder().encode(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`),
          )
        if (pulled >= 64) return controller.close()
        pulled++
        controller.enqueue(new Uint8Array(chunk))
      },
    })
    await expectRefused(() => post(stream), '文件不能超过 10MB', 413)
    expect(pulled).toBeLessThan(16)
  })

  it('refuses HTML bytes behind an image name and type', async () => {
    const html = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>')
    await expectRefused(() => post(multipart('photo.png', 'image/png', html)), '只支持 JPG、PNG、WebP 或 GIF 图片')
  })

  it('refuses a pixel bomb (a tiny PNG of 100 megapixels) before decoding it', async () => {
    const bomb = pixelBomb(10_000, 10_000)
    expect(bomb.length).toBeLessThan(100 * 1024)
    await expectRefused(() => post(multipart('bomb.png', 'image/png', bomb)), '图片无法解析或尺寸过大')
  })

  it('refuses a request that is not multipart, and one without a file', async () => {
    await expectRefused(() => post('{"file":"x"}', { 'content-type': 'application/json' }), '请以 multipart/form-data 上传文件')
    const noFile = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="other"\r\n\r\nhello\r\n--${BOUNDARY}--\r\n`
    await expectRefused(() => post(noFile), '请选择要上传的图片')
  })
})

describe('limits per user', () => {
  const tinyPng = () =>
    sharp({ create: { width: 8, height: 8, channels: 3, background: '#aa3322' } })
      .png()
      .toBuffer()
  const as = (t: string) => ({ authorization: `Bearer ${t}` })

  it('POST /api/uploads: 60 in 10 minutes; past that a 429 comes before the image is even looked at, and nothing is stored', async () => {
    const user = await createUser()
    const png = await tinyPng()
    for (let i = 0; i < 60; i++) expect((await post(multipart('a.png', 'image/png', png), as(user.token))).status).toBe(200)
    // Not an image: a 400 if it were decoded; the limit answers first.
    const html = Buffer.from('<html>not a picture</html>')
    await expectRefused(() => post(multipart('a.png', 'image/png', html), as(user.token)), '上传过于频繁，请 10 分钟 后再试', 429)
    await expectRefused(() => post(multipart('a.png', 'image/png', png), as(user.token)), '上传过于频繁，请 10 分钟 后再试', 429)
    // Another user is not held back.
    expect((await post(multipart('a.png', 'image/png', png), as(token))).status).toBe(200)
  })

  it('POST /api/users/avatar: 20 in 10 minutes, then a 429 the same way', async () => {
    const user = await createUser()
    const png = await tinyPng()
    for (let i = 0; i < 20; i++) expect((await postAvatar(png, user.token)).status).toBe(200)
    const before = await storedFiles('avatars')
    const res = await postAvatar(Buffer.from('<html>not a picture</html>'), user.token)
    expect(res.status).toBe(429)
    expect(res.body.errMessage).toBe('上传过于频繁，请 10 分钟 后再试')
    expect(await storedFiles('avatars')).toBe(before)
  })
})

describe('a replaced avatar', () => {
  const local = (url: string) => path.join(process.env.DATA_DIR!, 'files', url.replace(/^\/files\//, ''))

  it('has its stored file removed once the new one is saved', async () => {
    const user = await createUser()
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#123456' } })
      .png()
      .toBuffer()
    const first = (await postAvatar(png, user.token)).body.data.avatar as string
    expect(existsSync(local(first))).toBe(true)
    const second = (await postAvatar(png, user.token)).body.data.avatar as string
    expect(second).not.toBe(first)
    expect(existsSync(local(second))).toBe(true)
    expect(existsSync(local(first))).toBe(false)
  })

  it('removes nothing that is not an avatar this site stored: the default picture, another stored file', async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#654321' } })
      .png()
      .toBuffer()
    const fresh = await createUser()
    expect((await db().user.findUniqueOrThrow({ where: { id: fresh.id } })).avatar).toBe('/imgs/default_avatar.png')
    expect((await postAvatar(png, fresh.token)).status).toBe(200)

    const other = await createUser()
    const upload = await putFile('uploads/kept-aaaaaaaaaaaa.png', png)
    await db().user.update({ where: { id: other.id }, data: { avatar: upload } })
    expect((await postAvatar(png, other.token)).status).toBe(200)
    expect(existsSync(local(upload))).toBe(true)
  })
})

async function postAvatar(bytes: Buffer, userToken: string) {
  const form = new FormData()
  form.set('file', new Blob([new Uint8Array(bytes)]), 'picture.png')
  const req = new Request('http://localhost/api/users/avatar', {
    method: 'POST',
    headers: { authorization: `Bearer ${userToken}`, 'x-client-ip': '10.0.0.1' },
    body: form,
  })
  const res = await avatarRoute.POST(req, { params: Promise.resolve({}) })
  return { status: res.status, body: (await res.json()) as { success: boolean; data: { avatar: string }; errMessage?: string } }
}

async function storedFiles(folder: string): Promise<number> {
  return (await readdir(path.join(process.env.DATA_DIR!, 'files', folder)).catch(() => [])).length
}
