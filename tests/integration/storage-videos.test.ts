// Stored clips: the MP4 carries the AIGC label in its metadata whether or not the visible
// mark is on; with the mark the picture is re-encoded with "AI生成" burnt into the corner
// (and the poster taken from the file shows it); without a provider poster one is taken
// from the file; duration and size come from the file over what the provider said.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { frameAt, readVideoLabel } from '@/lib/generation/video-file'
import { storeVideos } from '@/lib/generation/store-videos'
import { readStoredFile } from '@/lib/storage/storage'
import { fakeClip } from '../fakes/video-jobs'

const stored = async (url: string) => (await readStoredFile(url.replace('/files/', '').split('?')[0]!))!

async function inspect(bytes: Buffer) {
  const dir = await mkdtemp(path.join(tmpdir(), 'stored-video-'))
  try {
    const file = path.join(dir, 'v.mp4')
    await writeFile(file, bytes)
    return { label: await readVideoLabel(file), frame: await frameAt(file, 0.5) }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** Mean absolute difference of two pictures of one size in a region (grey levels). */
async function difference(a: Buffer, b: Buffer, region: 'corner' | 'centre'): Promise<number> {
  const { width = 0, height = 0 } = await sharp(a).metadata()
  const box =
    region === 'corner' ? { left: width - 40, top: height - 20, width: 36, height: 16 } : { left: width / 2 - 20, top: height / 2 - 10, width: 40, height: 20 }
  const grey = (png: Buffer) => sharp(png).extract(box).greyscale().raw().toBuffer()
  const [x, y] = await Promise.all([grey(a), grey(b)])
  return x.reduce((sum, v, i) => sum + Math.abs(v - y[i]!), 0) / x.length
}

describe('storeVideos', () => {
  it('labels every clip; burns the mark in only when asked; takes a poster from the file; reads size and length from it', async () => {
    const clip = await fakeClip()
    const provider = { bytes: clip, poster: null, width: 1920, height: 1080, durationSec: 9 }
    const [plain] = await storeVideos('task-plain', [provider], { siteName: 'AI 画室', visibleMark: false })
    const [marked] = await storeVideos('task-marked', [provider], { siteName: 'AI 画室', visibleMark: true })
    expect(plain).toMatchObject({ width: 320, height: 240, durationSec: 1 })
    expect(plain!.downloadUrl).toMatch(/\.mp4\?download=task-plain-1\.mp4$/)

    const a = await inspect(await stored(plain!.url))
    const b = await inspect(await stored(marked!.url))
    expect(JSON.parse(a.label!)).toEqual({
      AIGC: { Label: '1', ContentProducer: 'AI 画室', ProduceID: 'task-plain', ContentPropagator: 'AI 画室', PropagateID: 'task-plain' },
    })
    expect(JSON.parse(b.label!).AIGC.ProduceID).toBe('task-marked')
    // The copy without the mark keeps the provider's stream as it was (only the metadata is new).
    expect(Math.abs((await stored(plain!.url)).length - clip.length)).toBeLessThan(4096)
    // The mark is in the corner of the marked copy's picture, and nowhere else changed much.
    expect(await difference(a.frame, b.frame, 'corner')).toBeGreaterThan(20)
    expect(await difference(a.frame, b.frame, 'centre')).toBeLessThan(8)

    const poster = await stored(marked!.posterUrl)
    expect((await sharp(poster).metadata()).format).toBe('webp')
    const plainPoster = await sharp(await stored(plain!.posterUrl))
      .png()
      .toBuffer()
    expect(await difference(await sharp(poster).png().toBuffer(), plainPoster, 'corner')).toBeGreaterThan(20)
  })

  it('a provider poster that cannot be decoded gives way to a frame of the clip; the clip is kept', async () => {
    const clip = await fakeClip()
    // A PNG signature, then nothing a decoder can read.
    const broken = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)])
    const [video] = await storeVideos('task-broken-poster', [{ bytes: clip, poster: broken, width: null, height: null, durationSec: null }], {
      siteName: 'AI 画室',
      visibleMark: false,
    })
    expect(video).toMatchObject({ width: 320, height: 240 })
    expect((await sharp(await stored(video!.posterUrl)).metadata()).width).toBe(320)
  })

  it('refuses a file without a picture (the task then fails with STORAGE_FAILED and a refund)', async () => {
    await expect(
      storeVideos('task-bad', [{ bytes: Buffer.from('not a video at all'), poster: null, width: null, height: null, durationSec: null }], {
        siteName: 'x',
        visibleMark: false,
      }),
    ).rejects.toThrow()
  })
})
