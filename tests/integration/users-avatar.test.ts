// POST /api/users/avatar: a multipart upload (field "file", at most 10MB) becomes the caller's
// 256×256 WebP avatar; anything else is refused with nothing changed.
import { readdir } from 'node:fs/promises'
import path from 'node:path'
import sharp from 'sharp'
import { expect, it } from 'vitest'
import * as avatar from '@/app/api/users/avatar/route'
import { db } from '@/lib/db'
import { readStoredFile } from '@/lib/storage/storage'
import { createUser } from '../helpers/call-route'
import { expectFail, expectOk } from '../helpers/expect-response'

const DEFAULT_AVATAR = '/imgs/default_avatar.png'

async function upload(bytes: Uint8Array, token?: string) {
  const form = new FormData()
  form.set('file', new Blob([new Uint8Array(bytes)]), 'picture.png')
  const headers = new Headers({ 'x-client-ip': '10.0.0.1' })
  if (token) headers.set('authorization', `Bearer ${token}`)
  const res = await avatar.POST(new Request('http://localhost/api/users/avatar', { method: 'POST', headers, body: form }), { params: Promise.resolve({}) })
  return { status: res.status, body: await res.json() }
}

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .png()
    .toBuffer()
/** Files stored under avatars/ (the local store of the tests: DATA_DIR/files). */
const storedAvatars = async () => (await readdir(path.join(process.env.DATA_DIR!, 'files', 'avatars')).catch(() => [])).length
const avatarOf = async (id: string) => (await db().user.findUniqueOrThrow({ where: { id } })).avatar

it('stores a good PNG as a 256×256 WebP and makes it the avatar', async () => {
  const user = await createUser()
  const profile = expectOk(await upload(await png(800, 600), user.token))
  expect(profile.avatar).toMatch(/^\/files\/avatars\/[A-Za-z0-9-]+\.webp$/)
  expect(await avatarOf(user.id)).toBe(profile.avatar)
  const stored = await readStoredFile(profile.avatar.replace(/^\/files\//, ''))
  expect(await sharp(stored!).metadata()).toMatchObject({ format: 'webp', width: 256, height: 256 })
  expect(await storedAvatars()).toBeGreaterThan(0)
})

it('refuses bytes that are not an image with 400, changing nothing', async () => {
  const user = await createUser()
  const files = await storedAvatars()
  expectFail(await upload(new TextEncoder().encode('<svg onload="alert(1)"></svg> not a picture'), user.token), 400, '只支持 JPG、PNG、WebP 或 GIF 图片')
  expect(await avatarOf(user.id)).toBe(DEFAULT_AVATAR)
  expect(await storedAvatars()).toBe(files)
})

it('refuses a file over 10MB with 413, changing nothing', async () => {
  const user = await createUser()
  const files = await storedAvatars()
  const big = new Uint8Array(10 * 1024 * 1024 + 1)
  big.set(await png(16, 16))
  expectFail(await upload(big, user.token), 413, '文件不能超过 10MB')
  expect(await avatarOf(user.id)).toBe(DEFAULT_AVATAR)
  expect(await storedAvatars()).toBe(files)
})

it('answers 401 without a token', async () => {
  expectFail(await upload(await png(32, 32)), 401, '请先登录')
})
