// Small media files the sweeps upload: a PNG, and a two-second MP4 made once with the FFmpeg the
// app ships (cached under .tmp).
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import sharp from 'sharp'

export function png(side = 16, colour = '#3a7'): Promise<Buffer> {
  return sharp({ create: { width: side, height: side, channels: 3, background: colour } })
    .png()
    .toBuffer()
}

export async function mp4Clip(): Promise<Buffer> {
  const dir = path.join(process.cwd(), '.tmp', 'reliability-media')
  const clip = path.join(dir, 'clip.mp4')
  if (!existsSync(clip)) {
    mkdirSync(dir, { recursive: true })
    const { ffmpegPath } = await import('../../../lib/generation/video-file')
    const args = ['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=12:duration=2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p']
    execFileSync(ffmpegPath(), ['-v', 'error', '-y', ...args, '-movflags', '+faststart', clip])
  }
  return readFileSync(clip)
}
