// Stored results carry the implicit AIGC label (EXIF and XMP) in the PNG and its WebP
// thumbnail, readable back with a Chinese site name; the visible "AI生成" mark follows
// the AI_MARK_ENABLED setting.
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import * as tasksRoute from '@/app/api/tasks/route'
import { db } from '@/lib/db'
import { storeResults } from '@/lib/generation/store-results'
import { invalidateConfigCache } from '@/lib/site-config/store'
import { readStoredFile } from '@/lib/storage/storage'
import { callRoute, createUser } from '../helpers/call-route'
import { createModel, drainQueue } from '../helpers/tasks'
import { first } from '../helpers/present'

const stored = async (url: string) => (await readStoredFile(url.replace('/files/', '')))!

/** IFD0 ImageDescription (tag 0x010e, ASCII) of a TIFF-structured EXIF block, as sharp returns it. */
function exifImageDescription(exif: Buffer): string | null {
  const tiff = exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? exif.subarray(6) : exif
  const little = tiff.toString('latin1', 0, 2) === 'II'
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at))
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at))
  const ifd = u32(4)
  for (let i = 0; i < u16(ifd); i++) {
    const entry = ifd + 2 + i * 12
    if (u16(entry) !== 0x010e || u16(entry + 2) !== 2) continue
    const count = u32(entry + 4)
    const at = count <= 4 ? entry + 8 : u32(entry + 8)
    return tiff.toString('latin1', at, at + count).replace(/\0+$/, '')
  }
  return null
}

/** The JSON of the TC260:AIGC property in an XMP packet. */
function xmpAigc(xmp: Buffer): string | null {
  const json = /<TC260:AIGC>([\s\S]*?)<\/TC260:AIGC>/.exec(xmp.toString('utf8'))?.[1]
  return json !== undefined ? json.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&') : null
}

async function labelsOf(bytes: Buffer) {
  const meta = await sharp(bytes).metadata()
  expect(meta.exif, 'EXIF present').toBeDefined()
  expect(meta.xmp, 'XMP present').toBeDefined()
  const exifText = exifImageDescription(meta.exif!)!
  expect(exifText, 'EXIF text is plain ASCII').toMatch(/^[\x20-\x7e]+$/)
  return { format: meta.format, exif: JSON.parse(exifText), xmp: JSON.parse(xmpAigc(meta.xmp!)!) }
}

describe('the implicit AIGC label', () => {
  it('keeps a Chinese site name readable in the PNG and its WebP thumbnail, in EXIF and XMP', async () => {
    const siteName = '小狸猫 AI 画室 <&> “测试”'
    const bytes = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#336699' } })
      .png()
      .toBuffer()
    const image = first(await storeResults('task-label-1', [{ bytes, seed: 3 }], { siteName, visibleMark: false }))
    for (const url of [image.url, image.thumbUrl]) {
      const labels = await labelsOf(await stored(url))
      expect(labels.format).toBe(url.endsWith('.webp') ? 'webp' : 'png')
      for (const label of [labels.exif, labels.xmp]) {
        expect(label).toEqual({
          AIGC: { Label: '1', ContentProducer: siteName, ProduceID: 'task-label-1', ContentPropagator: siteName, PropagateID: 'task-label-1' },
        })
      }
    }
  })

  it('a finished task names the default site "AI 画室" in both files', async () => {
    await createModel()
    const user = await createUser({ points: 100 })
    const res = await callRoute(tasksRoute.POST, {
      token: user.token,
      body: { type: 'SD_TEXT2IMG', params: { prompt: '一只猫', width: 256, height: 256, count: 1 } },
    })
    await drainQueue()
    const task = await db().task.findUniqueOrThrow({ where: { id: res.body.data.id } })
    expect(task.status).toBe('SUCCESS')
    const result = first(task.results as { url: string; thumbUrl: string }[])
    for (const url of [result.url, result.thumbUrl]) {
      const labels = await labelsOf(await stored(url))
      expect(labels.exif.AIGC).toMatchObject({ ContentProducer: 'AI 画室', ProduceID: task.id })
      expect(labels.xmp.AIGC).toMatchObject({ ContentProducer: 'AI 画室', ProduceID: task.id })
    }
  })
})

describe('the visible "AI生成" mark', () => {
  async function setMark(enabled: boolean) {
    const value = JSON.stringify(enabled)
    await db().siteConfig.upsert({ where: { name: 'AI_MARK_ENABLED' }, create: { name: 'AI_MARK_ENABLED', value }, update: { value } })
    invalidateConfigCache()
  }

  async function generate(token: string): Promise<{ data: Buffer; width: number; height: number }> {
    const res = await callRoute(tasksRoute.POST, {
      token,
      body: { type: 'SD_TEXT2IMG', params: { prompt: 'same picture', width: 256, height: 256, seed: 7, count: 1 } },
    })
    expect(res.status).toBe(200)
    await drainQueue()
    const task = await db().task.findUniqueOrThrow({ where: { id: res.body.data.id } })
    expect(task.status).toBe('SUCCESS')
    const { data, info } = await sharp(await stored(first(task.results as { url: string }[]).url))
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true })
    return { data, width: info.width, height: info.height }
  }

  /** Pixels that differ, counted inside and outside the bottom-right corner where the mark goes. */
  function differences(a: { data: Buffer; width: number; height: number }, b: { data: Buffer }) {
    let corner = 0
    let elsewhere = 0
    for (let y = 0; y < a.height; y++) {
      for (let x = 0; x < a.width; x++) {
        const at = (y * a.width + x) * 3
        if (a.data[at] === b.data[at] && a.data[at + 1] === b.data[at + 1] && a.data[at + 2] === b.data[at + 2]) continue
        if (x >= a.width - 64 && y >= a.height - 64) corner++
        else elsewhere++
      }
    }
    return { corner, elsewhere }
  }

  it('is painted in the corner when AI_MARK_ENABLED is on and not at all when it is off', async () => {
    await createModel()
    const user = await createUser({ points: 100 })
    await setMark(false)
    const plain = await generate(user.token)
    const plainAgain = await generate(user.token)
    await setMark(true)
    const marked = await generate(user.token)
    await setMark(false)

    expect(differences(plain, plainAgain)).toEqual({ corner: 0, elsewhere: 0 })
    const diff = differences(plain, marked)
    expect(diff.corner).toBeGreaterThan(200)
    expect(diff.elsewhere).toBe(0)
  })
})
