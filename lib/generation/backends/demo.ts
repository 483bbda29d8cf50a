import { createHash } from 'node:crypto'
import sharp from 'sharp'
import { asset } from '../assets'
import { BackendError, type AdapterFactory, type BackendImage, type GenerationJob, type RunContext } from './types'

/**
 * The built-in demo renderer: procedural pictures (colours and shapes drawn from the
 * prompt and seed), clearly labelled as demo images, so the whole flow works before an
 * operator connects a real backend. options.stepMs sets the pace (tests use 0).
 */
export const createDemoAdapter: AdapterFactory = (config) => {
  const stepMs = typeof config.options.stepMs === 'number' ? config.options.stepMs : 120
  return {
    kind: 'demo',
    async submit(job, ctx) {
      const steps = 10
      for (let i = 1; i <= steps; i++) {
        await sleep(stepMs, ctx)
        ctx.onProgress(Math.round((i / steps) * 95))
      }
      const images: BackendImage[] = []
      for (let n = 0; n < job.count; n++) {
        const seed = job.seed >= 0 ? job.seed + n : Math.floor(Math.random() * 2 ** 31)
        images.push({ bytes: await paint(job, seed), seed })
      }
      return { kind: 'completed', images, log: { renderer: 'demo', seeds: images.map((i) => i.seed) } }
    },
    async test() {
      return { ok: true, message: '内置演示渲染器可用（生成带“演示图”标记的示意图片）' }
    },
  }
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
  return () => ((state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32)
}

async function paint(job: GenerationJob, seed: number): Promise<Buffer> {
  const width = Math.min(job.width, 1024)
  const height = Math.min(job.height, 1024)
  const rand = randomFrom(job.prompt, seed)
  const hue = Math.floor(rand() * 360)
  const shapes = Array.from({ length: 14 }, () => {
    const r = (0.05 + rand() * 0.25) * Math.min(width, height)
    return `<circle cx="${(rand() * width).toFixed(0)}" cy="${(rand() * height).toFixed(0)}" r="${r.toFixed(0)}" fill="hsl(${(hue + rand() * 140) % 360} 80% ${45 + rand() * 25}%)" fill-opacity="${(0.25 + rand() * 0.5).toFixed(2)}"/>`
  }).join('')
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue} 70% 22%)"/><stop offset="1" stop-color="hsl(${(hue + 60) % 360} 70% 40%)"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>${shapes}</svg>`
  const base = sharp(Buffer.from(svg))
  const label = await sharp(await asset('demo-label.png'))
    .resize({ width: Math.round(width * 0.7), height: Math.round(height * 0.3), fit: 'inside' })
    .toBuffer()
  return base.composite([{ input: label, gravity: 'center' }]).png().toBuffer()
}
