// Polling pace (first poll within 5 s, then backing off to at most 15 s apart), the clip
// size for a ratio and resolution, the Range header, and FFmpeg's report parsed.
import { describe, expect, it } from 'vitest'
import { pollGaps, sizeFor } from '@/lib/generation/backends/video-follow'
import { parseProbe } from '@/lib/generation/video-file'
import { videoOptionsOf, videoPrice, videoRequestProblem } from '@/lib/models/video-options'
import { parseRange } from '@/lib/storage/byte-range'

describe('pollGaps', () => {
  it('polls first after 3 s, then half again longer each time, never more than 15 s apart', () => {
    const next = pollGaps({})
    expect(Array.from({ length: 7 }, next)).toEqual([3000, 4500, 6750, 10125, 15000, 15000, 15000])
  })

  it('keeps configured gaps within the pinned bounds', () => {
    const next = pollGaps({ firstPollMs: 60_000, maxPollMs: 60_000 })
    expect([next(), next(), next()]).toEqual([5000, 7500, 11250])
    expect(Array.from({ length: 5 }, next).at(-1)).toBe(15000)
  })
})

describe('sizeFor', () => {
  it.each([
    ['16:9', '720p', 1280, 720],
    ['9:16', '720p', 720, 1280],
    ['1:1', '480p', 480, 480],
    ['4:3', '1080p', 1440, 1080],
    ['21:9', '480p', 1120, 480],
  ])('%s at %s is %i×%i', (ratio, resolution, width, height) => {
    expect(sizeFor({ ratio, resolution })).toEqual({ width, height })
  })
})

describe('parseRange', () => {
  it.each([
    [null, null],
    ['bytes=0-', { start: 0, end: 999 }],
    ['bytes=100-199', { start: 100, end: 199 }],
    ['bytes=900-5000', { start: 900, end: 999 }],
    ['bytes=-100', { start: 900, end: 999 }],
    ['bytes=1000-', 'unsatisfiable'],
    ['bytes=5-1', 'unsatisfiable'],
    ['bytes=0-1,5-6', null],
    ['items=0-1', null],
  ])('%s', (header, expected) => {
    expect(parseRange(header, 1000)).toEqual(expected)
  })
})

describe('parseProbe', () => {
  it('reads the duration and the video stream size', () => {
    const report = `Input #0, mov,mp4,m4a,3gp,3g2,mj2, from 'in.mp4':
  Duration: 00:00:05.04, start: 0.000000, bitrate: 1200 kb/s
    Stream #0:0(und): Video: h264 (High) (avc1 / 0x31637661), yuv420p, 1280x720 [SAR 1:1 DAR 16:9], 1100 kb/s, 24 fps (default)
    Stream #0:1(und): Audio: aac (LC) (mp4a / 0x6134706D), 44100 Hz, stereo, fltp, 128 kb/s (default)`
    expect(parseProbe(report)).toEqual({ durationSec: 5.04, width: 1280, height: 720, hasVideo: true })
    expect(parseProbe('in.mp4: Invalid data found when processing input')).toEqual({ durationSec: null, width: null, height: null, hasVideo: false })
  })
})

describe('video options and prices', () => {
  it('fills what a model does not say with defaults and drops values it cannot mean', () => {
    expect(videoOptionsOf({ durations: [5, 10, 'x', 0], ratios: ['16:9', '7:5'], resolutions: [], lastFrame: true })).toEqual({
      durations: [5, 10],
      ratios: ['16:9'],
      resolutions: ['720p'],
      lastFrame: true,
      deadlineMinutes: 30,
    })
  })

  it('prices a clip per clip plus per second; null when the model does not offer the type', () => {
    expect(videoPrice({ VIDEO_TEXT2VIDEO: 10, VIDEO_PER_SECOND: 2 }, 'VIDEO_TEXT2VIDEO', 5)).toBe(20)
    expect(videoPrice({ VIDEO_TEXT2VIDEO: 10 }, 'VIDEO_TEXT2VIDEO', 5)).toBe(10)
    expect(videoPrice({ VIDEO_TEXT2VIDEO: 10 }, 'VIDEO_IMG2VIDEO', 5)).toBeNull()
  })

  it('says which choice the model does not offer', () => {
    const options = videoOptionsOf({ durations: [5], resolutions: ['720p'] })
    const ok = { durationSec: 5, ratio: '16:9', resolution: '720p', hasFirstFrame: false, hasLastFrame: false }
    expect(videoRequestProblem(options, ok)).toBeNull()
    expect(videoRequestProblem(options, { ...ok, durationSec: 10 })).toBe('该模型可选的时长为 5 秒')
    expect(videoRequestProblem(options, { ...ok, resolution: '1080p' })).toBe('该模型可选的分辨率为 720p')
    expect(videoRequestProblem(options, { ...ok, hasFirstFrame: true, hasLastFrame: true })).toBe('该模型不支持指定尾帧')
  })
})
