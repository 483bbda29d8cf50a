import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import sharp from 'sharp'
import { downloadLink, putFile, unguessable } from '@/lib/storage/storage'
import { MAX_INPUT_PIXELS } from '@/lib/uploads/image-upload'
import type { BackendVideo } from './backends/types'
import { aigcMetadata, labelled, markFor } from './store-results'
import { finishVideo, frameAt, probeVideo, withScratch } from './video-file'

/** One stored clip as a finished task carries it (`videos` beside `results`). */
export type StoredVideo = {
  url: string
  posterUrl: string
  /** Saves the clip (as <task id>-<n>.mp4) instead of playing it. */
  downloadUrl: string
  durationSec: number | null
  width: number | null
  height: number | null
}

export const POSTER_WIDTH = 960

/**
 * Copies a provider's clips into our storage before the task can succeed (provider links
 * expire within hours): each gets the implicit AIGC label in its MP4 metadata and, when the
 * site marks AI content visibly, the "AI生成" mark burnt in; a WebP poster (the provider's
 * frame where it gave one, else a frame taken from the file) carries the same label and
 * mark. Duration and size come from the file, else from what the provider said.
 */
export async function storeVideos(taskId: string, videos: BackendVideo[], options: { siteName: string; visibleMark: boolean }): Promise<StoredVideo[]> {
  const month = new Date().toISOString().slice(0, 7).replace('-', '')
  const label = aigcMetadata(options.siteName, taskId)
  const stored: StoredVideo[] = []
  for (const [index, video] of videos.entries()) {
    const base = `results/${month}/${taskId}-${index}-${unguessable()}`
    const result = await withScratch(async (dir) => {
      const input = path.join(dir, 'in.mp4')
      const output = path.join(dir, 'out.mp4')
      await writeFile(input, video.bytes)
      const facts = await probeVideo(input)
      if (!facts.hasVideo) throw new Error('the provider file has no video stream')
      const width = facts.width ?? video.width
      const height = facts.height ?? video.height
      const canMark = options.visibleMark && (width ?? 0) >= 128 && (height ?? 0) >= 128
      await finishVideo(input, output, label, canMark ? await markFor(width!, height!) : null)
      // The provider's frame when it offers a readable one: a poster that cannot be decoded must not throw away a good clip.
      const given = video.poster ? await posterOf(video.poster, label, canMark).catch(() => null) : null
      const poster = given ?? (await posterOf(await frameAt(output, Math.min(1, (facts.durationSec ?? 0) / 10)), label, false))
      return { bytes: await readFile(output), poster, facts, width, height }
    })
    const { poster } = result
    stored.push({
      url: await putFile(`${base}.mp4`, result.bytes),
      posterUrl: await putFile(`${base}.poster.webp`, poster),
      downloadUrl: downloadLink(`${base}.mp4`, `${taskId}-${index + 1}.mp4`),
      durationSec: result.facts.durationSec ?? video.durationSec,
      width: result.width,
      height: result.height,
    })
  }
  return stored
}

/**
 * The poster as WebP with the AIGC label; a provider's frame gets the visible mark too (one
 * taken from the file has it already), unless it is too small for a legible one.
 */
async function posterOf(frame: Buffer, label: string, mark: boolean): Promise<Buffer> {
  const resized = await sharp(frame, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
    .resize({ width: POSTER_WIDTH, withoutEnlargement: true })
    .png()
    .toBuffer()
  const { width = 0, height = 0 } = await sharp(resized).metadata()
  const image =
    mark && width >= 128 && height >= 128 ? sharp(resized).composite([{ input: await markFor(width, height), gravity: 'southeast' }]) : sharp(resized)
  return labelled(image.webp({ quality: 82 }), label).toBuffer()
}
