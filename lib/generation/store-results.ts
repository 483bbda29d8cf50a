import sharp, { type Sharp } from 'sharp'
import { downloadLink, putFile, unguessable } from '@/lib/storage/storage'
import { MAX_INPUT_PIXELS } from '@/lib/uploads/image-upload'
import { asset } from './assets'
import type { BackendImage } from './backends/types'

export type StoredImage = {
  url: string
  thumbUrl: string
  /** Saves the image (as <task id>-<n>.png) instead of showing it, from local storage or S3 alike; missing on results stored before it existed. */
  downloadUrl?: string
  width: number
  height: number
  seed: number | null
}

export const THUMB_WIDTH = 384

/**
 * The implicit label of China's AI-content labelling measures (in force 2025-09): who
 * produced the content and its id, in the file's metadata.
 */
export function aigcMetadata(siteName: string, taskId: string): string {
  return JSON.stringify({ AIGC: { Label: '1', ContentProducer: siteName, ProduceID: taskId, ContentPropagator: siteName, PropagateID: taskId } })
}

/** EXIF text is ASCII: anything beyond it is written as a JSON \uXXXX escape, so the JSON still parses to the same names. */
export function asciiJson(json: string): string {
  return json.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/** The same label as XMP (UTF-8), under the TC260 namespace readers of the labelling standard look for. */
export function aigcXmp(json: string): string {
  const text = json.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
  return (
    '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
    `<rdf:Description rdf:about="" xmlns:TC260="http://www.tc260.org.cn/ns/AIGC/1.0/"><TC260:AIGC>${text}</TC260:AIGC></rdf:Description>` +
    '</rdf:RDF></x:xmpmeta><?xpacket end="w"?>'
  )
}

/** Puts the label in EXIF ImageDescription and in XMP, on a PNG or WebP pipeline. */
export function labelled(image: Sharp, label: string): Sharp {
  return image.withExif({ IFD0: { ImageDescription: asciiJson(label), Software: 'aiimg' } }).withXmp(aigcXmp(label))
}

/**
 * Copies a backend's images into our storage before the task can succeed (backend URLs
 * expire): each is decoded with a pixel limit, optionally marked "AI生成" in a corner,
 * saved as PNG with the implicit AIGC label in its EXIF and XMP, plus a WebP thumbnail
 * carrying the same label.
 */
export async function storeResults(taskId: string, images: BackendImage[], options: { siteName: string; visibleMark: boolean }): Promise<StoredImage[]> {
  const month = new Date().toISOString().slice(0, 7).replace('-', '')
  const stored: StoredImage[] = []
  const label = aigcMetadata(options.siteName, taskId)
  for (const [index, image] of images.entries()) {
    const input = sharp(image.bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
    const { width = 0, height = 0 } = await input.metadata()
    // Too small for a legible mark: such images are previews or icons, not artworks.
    const canMark = options.visibleMark && width >= 128 && height >= 128
    const marked = canMark ? input.composite([{ input: await markFor(width, height), gravity: 'southeast' }]) : input
    const png = await labelled(marked.png({ compressionLevel: 6 }), label).toBuffer()
    const thumb = await labelled(sharp(png).resize({ width: THUMB_WIDTH, withoutEnlargement: true }).webp({ quality: 80 }), label).toBuffer()
    // Unguessable: a task's images are private until published, one by one, and /files serves whatever is named.
    const base = `results/${month}/${taskId}-${index}-${unguessable()}`
    stored.push({
      url: await putFile(`${base}.png`, png),
      thumbUrl: await putFile(`${base}.thumb.webp`, thumb),
      downloadUrl: downloadLink(`${base}.png`, `${taskId}-${index + 1}.png`),
      width,
      height,
      seed: image.seed,
    })
  }
  return stored
}

/** The "AI生成" mark, about a seventh of the shorter side wide, with a small margin. */
export async function markFor(width: number, height: number): Promise<Buffer> {
  const markWidth = Math.max(48, Math.round(Math.min(width, height) / 7))
  const margin = Math.round(markWidth / 10)
  return sharp(await asset('ai-mark.png'))
    .resize({ width: markWidth })
    .extend({ right: margin, bottom: margin, background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer()
}

/** Previews are for watching a job, not results: small WebP, no label; each under a new key. */
export const PREVIEW_WIDTH = 512

export async function storePreview(taskId: string, sequence: number, bytes: Buffer): Promise<string> {
  const month = new Date().toISOString().slice(0, 7).replace('-', '')
  const webp = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
    .resize({ width: PREVIEW_WIDTH, withoutEnlargement: true })
    .webp({ quality: 70 })
    .toBuffer()
  return putFile(`previews/${month}/${taskId}-${sequence}-${unguessable()}.webp`, webp)
}
