// Jobs, contexts and input images for the backend contract tests.
import net from 'node:net'
import sharp from 'sharp'
import { expect } from 'vitest'
import { at } from '../helpers/present'
import { BackendError, type BackendErrorCode, type GenerationJob, type RunContext } from '@/lib/generation/backends/types'

let jobNumber = 0

export function testJob(overrides: Partial<GenerationJob> = {}): GenerationJob {
  return {
    taskId: `task-${process.pid}-${++jobNumber}`,
    mode: 'txt2img',
    prompt: '1girl, blue hair, red dress',
    negativePrompt: 'lowres, blurry',
    width: 512,
    height: 768,
    steps: 12,
    cfgScale: 7,
    seed: 1234,
    sampler: null,
    count: 1,
    denoisingStrength: null,
    checkpoint: null,
    initImage: null,
    maskImage: null,
    controlImage: null,
    controlnet: null,
    ...overrides,
  }
}

/** A context that records progress; pass a signal to abort. */
export function recordingContext(signal: AbortSignal = new AbortController().signal): { ctx: RunContext; progress: number[] } {
  const progress: number[] = []
  return { ctx: { signal, onProgress: (p) => progress.push(p) }, progress }
}

export function solidPng(width: number, height: number, colour = '#3366cc'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer()
}

/** White (repaint) on the left half, black (keep) on the right. */
export async function leftHalfMask(width: number, height: number): Promise<Buffer> {
  const white = await sharp({ create: { width: Math.floor(width / 2), height, channels: 3, background: '#ffffff' } })
    .png()
    .toBuffer()
  return sharp({ create: { width, height, channels: 3, background: '#000000' } })
    .composite([{ input: white, left: 0, top: 0 }])
    .png()
    .toBuffer()
}

/** Black lines on white, like a user's line drawing. */
export async function lineArt(width: number, height: number): Promise<Buffer> {
  const line = await sharp({ create: { width, height: 4, channels: 3, background: '#000000' } })
    .png()
    .toBuffer()
  return sharp({ create: { width, height, channels: 3, background: '#ffffff' } })
    .composite([{ input: line, left: 0, top: Math.floor(height / 2) }])
    .png()
    .toBuffer()
}

export async function expectImages(images: { bytes: Buffer }[], count: number): Promise<void> {
  expect(images).toHaveLength(count)
  for (const image of images) {
    const meta = await sharp(image.bytes).metadata()
    expect(meta.width).toBeGreaterThan(0)
  }
}

/** The BackendError a promise rejects with (fails the test if it resolves or throws something else). */
export async function backendError(promise: Promise<unknown>): Promise<BackendError> {
  const error = await promise.then(
    () => null,
    (err: unknown) => err,
  )
  expect(error).toBeInstanceOf(BackendError)
  return error as BackendError
}

export async function expectFailure(promise: Promise<unknown>, code: BackendErrorCode, retryable: boolean, message?: RegExp): Promise<BackendError> {
  const error = await backendError(promise)
  expect({ code: error.code, retryable: error.retryable }).toEqual({ code, retryable })
  if (message) expect(error.message).toMatch(message)
  return error
}

/** A URL on this machine where nothing listens. */
export async function deadEndpoint(): Promise<string> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${port}`
}

/** Every value at least the one before it. */
export function expectRising(values: number[]): void {
  for (let i = 1; i < values.length; i++) expect(values[i]).toBeGreaterThanOrEqual(at(values, i - 1))
}
