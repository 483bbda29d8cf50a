import { createHash } from 'node:crypto'
import sharp from 'sharp'
import { asset } from '../assets'
import { renderStillClip } from '../video-file'
import { BackendError, type AdapterFactory, type BackendImage, type BackendVideo, type GenerationJob, type RunContext, type VideoJob } from './types'
import { sizeFor } from './video-follow'

/** 10 steps of this many ms: slow enough that a page shows its queue, submit and progress stages. */
export const DEMO_STEP_MS = 250

/**
 * The built-in demo renderer: procedural pictures (colours and shapes drawn from the
 * prompt and seed), clearly labelled as demo images, so the whole flow works before an
 * operator connects a real backend. Each mode looks like itself: img2img recolours the
 * uploaded picture, inpainting repaints only the masked area, line art is coloured
 * between its lines. options.stepMs sets the pace (tests use 0).
 */
export const createDemoAdapter: AdapterFactory = (config) => {
  const stepMs = typeof config.options.stepMs === 'number' ? config.options.stepMs : DEMO_STEP_MS
  return {
    kind: 'demo',
    async submit(job, ctx) {
      const steps = 10
      for (let i = 1; i <= steps; i++) {
        await sleep(stepMs, ctx)
        ctx.onProgress(Math.round((i / steps) * 95))
      }
      if (job.video) {
        const video = await demoClip(job, job.video)
        return { kind: 'completed', images: [], videos: [video], log: { renderer: 'demo', mode: 'video', durationSec: video.durationSec } }
      }
      const images: BackendImage[] = []
      for (let n = 0; n < job.count; n++) {
        const seed = job.seed >= 0 ? job.seed + n : Math.floor(Math.random() * 2 ** 31)
        images.push({ bytes: await paint(job, seed), seed })
      }
      return { kind: 'completed', images, log: { renderer: 'demo', mode: job.mode, seeds: images.map((i) => i.seed) } }
    },
    async test() {
      return { ok: true, message: '内置演示渲染器可用（生成带“演示图”标记的示意图片）' }
    },
  }
}

/** Demo clips are small: 360p and 3 s at most, whatever was asked (they show the flow, not a picture). */
const DEMO_CLIP_SHORT_SIDE = 360
const DEMO_CLIP_MAX_SEC = 3

/** A slow zoom into the prompt's picture, or into the given first frame, labelled 演示图 like the demo's images. */
async function demoClip(job: GenerationJob, video: VideoJob): Promise<BackendVideo> {
  const { width, height } = sizeFor({ ratio: video.ratio, resolution: `${DEMO_CLIP_SHORT_SIDE}p` })
  const size = { width, height }
  const still = video.firstFrame
    ? await labelled(await sharp(video.firstFrame).resize(width, height, { fit: 'cover' }).png().toBuffer(), size, 'south')
    : await paint({ ...job, width, height }, job.seed >= 0 ? job.seed : Math.floor(Math.random() * 2 ** 31))
  const durationSec = Math.min(video.durationSec, DEMO_CLIP_MAX_SEC)
  const bytes = await renderStillClip(await sharp(still).resize(width, height, { fit: 'fill' }).png().toBuffer(), width, height, durationSec)
  return { bytes, poster: null, width, height, durationSec }
}

function sleep(ms: number, ctx: RunContext): Promise<void> {
  if (ctx.signal.aborted) return Promise.reject(new BackendError('ABORTED', '任务已中止', false))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms)
    ctx.signal.addEventListener('abort', () => (clearTimeout(timer), reject(new BackendError('ABORTED', '任务已中止', false))), { once: true })
  })
}

/** Deterministic numbers from the prompt and seed. */
function randomFrom(prompt: string, seed: number) {
  let state = createHash('sha256').update(`${prompt}#${seed}`).digest().readUInt32BE(0) || 1
  return () => (state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32
}

type Size = { width: number; height: number }
/** RGB pixels, 3 bytes each. */
type Pixels = Size & { data: Buffer }

async function paint(job: GenerationJob, seed: number): Promise<Buffer> {
  const size = { width: Math.min(Math.max(job.width, 64), 1024), height: Math.min(Math.max(job.height, 64), 1024) }
  const rand = randomFrom(job.prompt, seed)
  const hue = Math.floor(rand() * 360)
  if (job.mode === 'img2img' && job.initImage) return recolour(await pixelsOf(job.initImage, size), hue, job.denoisingStrength ?? 0.6)
  if (job.mode === 'inpaint' && job.initImage && job.maskImage) return repaintMasked(job, size, hue, rand)
  if (job.mode === 'lineart' && job.controlImage) return colourLineArt(job.controlImage, size, hue, rand)
  return labelled(
    await sharp(procedural(size, hue, rand))
      .png()
      .toBuffer(),
    size,
  )
}

/** The picture of a prompt: a gradient in its hue with translucent circles. */
function procedural({ width, height }: Size, hue: number, rand: () => number): Buffer {
  const shapes = Array.from({ length: 14 }, () => {
    const r = (0.05 + rand() * 0.25) * Math.min(width, height)
    return `<circle cx="${(rand() * width).toFixed(0)}" cy="${(rand() * height).toFixed(0)}" r="${r.toFixed(0)}" fill="hsl(${(hue + rand() * 140) % 360} 80% ${45 + rand() * 25}%)" fill-opacity="${(0.25 + rand() * 0.5).toFixed(2)}"/>`
  }).join('')
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue} 70% 22%)"/><stop offset="1" stop-color="hsl(${(hue + 60) % 360} 70% 40%)"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>${shapes}</svg>`)
}

async function label(box: Size): Promise<Buffer> {
  return sharp(await asset('demo-label.png'))
    .resize({ width: Math.max(1, Math.round(box.width * 0.7)), height: Math.max(1, Math.round(box.height * 0.3)), fit: 'inside' })
    .toBuffer()
}

/** The 演示图 label: in the middle of a made-up picture, along the bottom of one made from the user's (its subject stays in view). */
async function labelled(png: Buffer, size: Size, where: 'center' | 'south' = 'center'): Promise<Buffer> {
  const box = where === 'center' ? size : { width: size.width, height: Math.round(size.height * 0.6) }
  return sharp(png)
    .composite([{ input: await label(box), gravity: where }])
    .png()
    .toBuffer()
}

/** An image as RGB pixels of this size (stretched if its shape differs: the form asks for the picture's own shape). */
async function pixelsOf(input: Buffer, size: Size): Promise<Pixels> {
  const { data, info } = await sharp(input)
    .resize({ ...size, fit: 'fill' })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true })
  return { width: info.width, height: info.height, data }
}

/** An image as one grey byte per pixel, this size (transparency counts as `background`). */
async function greyOf(input: Buffer, size: Size, background: string): Promise<Buffer> {
  return sharp(input)
    .flatten({ background })
    .resize({ ...size, fit: 'fill' })
    .greyscale()
    .extractChannel(0)
    .raw()
    .toBuffer()
}

const toPng = ({ data, width, height }: Pixels) =>
  sharp(data, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer()

/** hsl(hue, 70%, l) as RGB, l in 0..1. */
function hueColour(hue: number, l: number): [number, number, number] {
  const s = 0.7
  const a = s * Math.min(l, 1 - l)
  const f = (n: number) => {
    const k = (n + hue / 30) % 12
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))))
  }
  return [f(0), f(8), f(4)]
}

const luma = (d: Buffer, i: number) => (0.299 * d.readUInt8(i) + 0.587 * d.readUInt8(i + 1) + 0.114 * d.readUInt8(i + 2)) / 255

/** img2img: the uploaded picture, its light and shade kept, recoloured in the prompt's hue (more with a higher strength). */
async function recolour(base: Pixels, hue: number, strength: number): Promise<Buffer> {
  const out = Buffer.alloc(base.data.length)
  const amount = 0.35 + 0.65 * Math.min(1, Math.max(0, strength))
  for (let i = 0; i < out.length; i += 3) {
    const colour = hueColour(hue, 0.15 + 0.7 * luma(base.data, i))
    colour.forEach((value, c) => (out[i + c] = Math.round(base.data.readUInt8(i + c) * (1 - amount) + value * amount)))
  }
  return labelled(await toPng({ ...base, data: out }), base, 'south')
}

/** Inpainting: the prompt's picture (with the label) where the mask is white; elsewhere the original, untouched. */
async function repaintMasked(job: GenerationJob, size: Size, hue: number, rand: () => number): Promise<Buffer> {
  const base = await pixelsOf(job.initImage!, size)
  const mask = await greyOf(job.maskImage!, size, '#000000')
  const box = maskBox(mask, size)
  if (!box) return toPng(base)
  const paintLayer = await sharp(procedural(size, hue, rand))
    .composite([{ input: await label(box), left: box.left + Math.floor(box.width * 0.15), top: box.top + Math.floor(box.height * 0.35) }])
    .png()
    .toBuffer()
  const paint = await pixelsOf(paintLayer, size)
  const out = Buffer.from(base.data)
  for (let i = 0; i < out.length; i += 3) {
    const m = mask.readUInt8(i / 3) / 255
    if (m === 0) continue
    for (let c = 0; c < 3; c++) out[i + c] = Math.round(base.data.readUInt8(i + c) * (1 - m) + paint.data.readUInt8(i + c) * m)
  }
  return toPng({ ...base, data: out })
}

/** Where the mask paints (white), as a box; null when it paints nowhere. */
function maskBox(mask: Buffer, { width, height }: Size): (Size & { left: number; top: number }) | null {
  let [left, top, right, bottom] = [width, height, -1, -1]
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (mask.readUInt8(y * width + x) === 0) continue
      left = Math.min(left, x)
      right = Math.max(right, x)
      top = Math.min(top, y)
      bottom = Math.max(bottom, y)
    }
  }
  return right < 0 ? null : { left, top, width: right - left + 1, height: bottom - top + 1 }
}

/** Line art: the paper takes the prompt's colours (light, like a wash), the dark lines stay dark. */
async function colourLineArt(control: Buffer, size: Size, hue: number, rand: () => number): Promise<Buffer> {
  const lines = await greyOf(control, size, '#ffffff')
  const wash = await pixelsOf(
    await sharp(procedural(size, hue, rand))
      .modulate({ brightness: 1.45, saturation: 1.1 })
      .png()
      .toBuffer(),
    size,
  )
  const out = Buffer.alloc(wash.data.length)
  for (let i = 0; i < out.length; i += 3) {
    const paper = lines.readUInt8(i / 3) / 255
    for (let c = 0; c < 3; c++) out[i + c] = Math.round(wash.data.readUInt8(i + c) * paper)
  }
  return labelled(await toPng({ ...wash, data: out }), size, 'south')
}
