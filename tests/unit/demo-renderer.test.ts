import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { createDemoAdapter } from '@/lib/generation/backends/demo'
import type { GenerationJob } from '@/lib/generation/backends/types'
import { first } from '../helpers/present'

/**
 * The demo renderer shows each mode as that mode: img2img recolours the uploaded picture,
 * inpainting changes only what the mask covers, line art is coloured with its lines kept.
 */
const W = 96
const H = 64

type Raw = { data: Buffer; width: number; height: number }

const png = (data: Buffer, channels: 1 | 3 = 3) =>
  sharp(data, { raw: { width: W, height: H, channels } })
    .png()
    .toBuffer()

async function raw(bytes: Buffer): Promise<Raw> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  expect(info.channels).toBe(3)
  return { data, width: info.width, height: info.height }
}

/** A picture with texture: bright at the top, dark at the bottom, some noise. */
function photo(): Buffer {
  const data = Buffer.alloc(W * H * 3)
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const i = (y * W + x) * 3
      const base = y < H / 2 ? 210 : 40
      data[i] = base + ((x * 7 + y * 3) % 30)
      data[i + 1] = base + ((x * 5) % 25)
      data[i + 2] = base + ((y * 11) % 20)
    }
  }
  return data
}

const INSIDE = (x: number, y: number) => x >= 40 && x < 88 && y >= 8 && y < 56

async function render(job: Partial<GenerationJob>): Promise<Raw> {
  const adapter = createDemoAdapter({ endpoint: '', secret: null, checkpoint: null, options: { stepMs: 0 } })
  const outcome = await adapter.submit(
    {
      taskId: 't',
      mode: 'txt2img',
      prompt: 'a red fox in snow',
      negativePrompt: '',
      width: W,
      height: H,
      steps: 20,
      cfgScale: 7,
      seed: 42,
      sampler: null,
      count: 1,
      denoisingStrength: null,
      checkpoint: null,
      initImage: null,
      maskImage: null,
      controlImage: null,
      controlnet: null,
      ...job,
    },
    { signal: new AbortController().signal, onProgress: () => {} },
  )
  if (outcome.kind !== 'completed') throw new Error('the demo renderer answers at once')
  const image = await raw(first(outcome.images).bytes)
  expect([image.width, image.height]).toEqual([W, H])
  return image
}

/** The red, green and blue bytes of the pixel at byte offset i. */
const rgb = (d: Buffer, i: number): [number, number, number] => [d.readUInt8(i), d.readUInt8(i + 1), d.readUInt8(i + 2)]

function luma(d: Buffer, i: number): number {
  const [r, g, b] = rgb(d, i)
  return 0.299 * r + 0.587 * g + 0.114 * b
}

describe('the demo renderer', () => {
  it('inpainting keeps every pixel outside the mask and repaints inside it', async () => {
    const original = photo()
    const mask = Buffer.alloc(W * H)
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) mask[y * W + x] = INSIDE(x, y) ? 255 : 0
    const out = await render({ mode: 'inpaint', initImage: await png(original), maskImage: await png(mask, 1), denoisingStrength: 0.75 })

    let changedInside = 0
    let inside = 0
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const i = (y * W + x) * 3
        const same = out.data[i] === original[i] && out.data[i + 1] === original[i + 1] && out.data[i + 2] === original[i + 2]
        if (INSIDE(x, y)) {
          inside++
          if (!same) changedInside++
        } else {
          expect(same, `pixel ${x},${y} outside the mask changed`).toBe(true)
        }
      }
    }
    expect(changedInside / inside).toBeGreaterThan(0.9)
  })

  it('img2img recolours the uploaded picture: its light and shade stay, its colours move', async () => {
    const original = photo()
    const out = await render({ mode: 'img2img', initImage: await png(original), denoisingStrength: 0.6 })
    // Away from the label in the middle: rows 0-9 (bright) and 54-63 (dark).
    let top = 0
    let bottom = 0
    let moved = 0
    let n = 0
    for (let x = 0; x < W; x++) {
      for (const y of [2, 5, 8]) top += luma(out.data, (y * W + x) * 3)
      for (const y of [56, 59, 62]) bottom += luma(out.data, (y * W + x) * 3)
      for (const y of [2, 5, 8, 56, 59, 62]) {
        const i = (y * W + x) * 3
        const [r, g, b] = rgb(out.data, i)
        const [r0, g0, b0] = rgb(original, i)
        moved += Math.abs(r - r0) + Math.abs(g - g0) + Math.abs(b - b0)
        n += 3
      }
    }
    expect(top / (W * 3)).toBeGreaterThan(bottom / (W * 3) + 60)
    expect(moved / n).toBeGreaterThan(15)
  })

  it('line art is coloured between its lines and the lines stay dark', async () => {
    const lines = Buffer.alloc(W * H, 255)
    for (let y = 2; y < 6; y++) for (let x = 0; x < W; x++) lines[y * W + x] = 0
    for (let y = 0; y < H; y++) for (let x = 2; x < 5; x++) lines[y * W + x] = 0
    const out = await render({ mode: 'lineart', controlImage: await png(lines, 1) })

    for (let x = 0; x < W; x++) {
      const i = (3 * W + x) * 3
      expect(Math.max(...rgb(out.data, i)), `line pixel ${x},3`).toBeLessThan(30)
    }
    // The paper near the edges (away from the label): coloured, not left white or grey.
    let coloured = 0
    let paper = 0
    for (const y of [8, 10, 60, 62]) {
      for (let x = 8; x < W; x++) {
        const i = (y * W + x) * 3
        paper++
        const spread = Math.max(...rgb(out.data, i)) - Math.min(...rgb(out.data, i))
        if (spread > 20 && luma(out.data, i) > 60) coloured++
      }
    }
    expect(coloured / paper).toBeGreaterThan(0.8)
  })

  it('text-to-image still paints the prompt, labelled, at the asked size', async () => {
    const a = await render({ mode: 'txt2img' })
    const b = await render({ mode: 'txt2img', prompt: 'a blue whale' })
    expect(a.data.equals(b.data)).toBe(false)
  })
})
