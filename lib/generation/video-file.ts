import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'

// What we do with video files, through FFmpeg: read a clip's duration and size, take a
// poster frame, write the AIGC label into the container (and burn the visible mark in),
// and render the demo backend's clips. The binary ships inside the npm package
// @ffmpeg-installer/<platform> (docs/DECISIONS.md "FFmpeg for video files").

let binary: string | null = null

/**
 * The FFmpeg binary of @ffmpeg-installer for this platform (looked up under the app's
 * node_modules, as the server bundle cannot resolve it from its own path), else through
 * the package's resolver, else `ffmpeg` on the PATH.
 */
export function ffmpegPath(): string {
  if (binary) return binary
  const shipped = path.join(process.cwd(), 'node_modules', '@ffmpeg-installer', `${process.platform}-${process.arch}`, 'ffmpeg')
  if (existsSync(shipped)) return (binary = shipped)
  try {
    binary = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path
  } catch {
    binary = 'ffmpeg'
  }
  return binary
}

export class VideoToolError extends Error {}

/** Runs FFmpeg; resolves with its stdout (binary) and stderr (text), rejects on a non-zero exit unless `allowFailure`. */
export function runFfmpeg(args: string[], options: { allowFailure?: boolean; timeoutMs?: number } = {}): Promise<{ stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath(), ['-hide_banner', '-nostdin', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    const out: Buffer[] = []
    let err = ''
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 300_000)
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => (err = (err + chunk.toString('utf8')).slice(-20_000)))
    child.on('error', (error) => (clearTimeout(timer), reject(new VideoToolError(`FFmpeg 无法启动：${error.message}`))))
    child.on('close', (code) => {
      clearTimeout(timer)
      if (code === 0 || options.allowFailure) resolve({ stdout: Buffer.concat(out), stderr: err })
      else reject(new VideoToolError(`FFmpeg 失败（退出码 ${code}）：${err.trim().split('\n').slice(-3).join(' ')}`))
    })
  })
}

/** A scratch folder for one job's files, removed afterwards whatever happens. */
export async function withScratch<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'aiimg-video-'))
  try {
    return await work(dir)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

export type VideoFacts = { durationSec: number | null; width: number | null; height: number | null; hasVideo: boolean }

/** What FFmpeg reads from the file's header: duration and the first video stream's size. */
export async function probeVideo(file: string): Promise<VideoFacts> {
  const { stderr } = await runFfmpeg(['-i', file], { allowFailure: true, timeoutMs: 30_000 })
  return parseProbe(stderr)
}

/** FFmpeg's `-i` report: "Duration: 00:00:05.04, ..." and "Stream #0:0(und): Video: h264 (...), yuv420p, 1280x720 [SAR ...]". */
export function parseProbe(report: string): VideoFacts {
  const duration = /Duration: (\d+):(\d\d):(\d\d(?:\.\d+)?)/.exec(report)
  const video = /Stream #[^\n]*?: Video: [^\n]*?, (\d{2,5})x(\d{2,5})/.exec(report)
  const seconds = duration ? Number(duration[1]) * 3600 + Number(duration[2]) * 60 + Number(duration[3]) : null
  return {
    durationSec: seconds === null ? null : Math.round(seconds * 100) / 100,
    width: video ? Number(video[1]) : null,
    height: video ? Number(video[2]) : null,
    hasVideo: Boolean(video),
  }
}

/** A PNG of the frame at `atSec` (the poster where the provider gave none). */
export async function frameAt(file: string, atSec: number): Promise<Buffer> {
  const { stdout } = await runFfmpeg(['-v', 'error', '-ss', String(atSec), '-i', file, '-frames:v', '1', '-f', 'image2pipe', '-vcodec', 'png', '-'], {
    timeoutMs: 60_000,
  })
  if (stdout.length === 0) throw new VideoToolError('FFmpeg 没有取到画面')
  return stdout
}

/**
 * The stored copy of a clip: the AIGC label in the container's metadata (MP4 `moov/meta`
 * keys `AIGC` and `comment`), moov in front for playback before the whole file arrived,
 * and, given `mark` (a PNG), the visible mark burnt into the bottom-right corner (that
 * one re-encodes the picture; otherwise the streams are copied as they are).
 */
export async function finishVideo(input: string, output: string, label: string, mark: Buffer | null): Promise<void> {
  const args = ['-v', 'error', '-y', '-i', input]
  if (mark) {
    const markFile = `${output}.mark.png`
    await writeFile(markFile, mark)
    args.push('-i', markFile, '-filter_complex', '[0:v][1:v]overlay=W-w:H-h[v]', '-map', '[v]', '-map', '0:a?')
    args.push('-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-pix_fmt', 'yuv420p', '-c:a', 'copy')
  } else {
    args.push('-map', '0', '-c', 'copy')
  }
  args.push('-metadata', `AIGC=${label}`, '-metadata', `comment=${label}`, '-movflags', '+faststart+use_metadata_tags', '-f', 'mp4', output)
  await runFfmpeg(args)
}

/** The AIGC label as FFmpeg reads it back from a stored file (tests, support). */
export async function readVideoLabel(file: string): Promise<string | null> {
  const { stdout } = await runFfmpeg(['-v', 'error', '-i', file, '-f', 'ffmetadata', '-'], { timeoutMs: 30_000 })
  const line = stdout
    .toString('utf8')
    .split('\n')
    .find((l) => l.startsWith('AIGC='))
  return line ? line.slice('AIGC='.length).replace(/\\(.)/g, '$1') : null
}

/**
 * The demo backend's clip: a slow zoom into a still picture (H.264, 24 fps, no sound).
 * `still` is PNG bytes of the clip's size.
 */
export async function renderStillClip(still: Buffer, width: number, height: number, durationSec: number): Promise<Buffer> {
  return withScratch(async (dir) => {
    const input = path.join(dir, 'still.png')
    const output = path.join(dir, 'clip.mp4')
    await writeFile(input, still)
    const frames = Math.round(durationSec * 24)
    const zoom = `zoompan=z='min(zoom+0.0015,1.25)':x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':d=${frames}:s=${width}x${height}:fps=24`
    await runFfmpeg(
      ['-v', 'error', '-y', '-loop', '1', '-i', input, '-vf', zoom, '-frames:v', String(frames)].concat([
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-pix_fmt',
        'yuv420p',
        '-movflags',
        '+faststart',
        output,
      ]),
    )
    return readFile(output)
  })
}
