// What the fake video providers share: a job store whose jobs move from queued through
// running (progress rising with each poll) to an ending chosen by the behaviour, and a
// real small MP4 (made once with FFmpeg) for the finished ones.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { runFfmpeg } from '@/lib/generation/video-file'

export type VideoBehaviour =
  | 'normal' // done on the second poll
  | 'slow' // runs for `slowPolls` polls, progress rising, then done
  | 'failing' // accepted, then fails on the second poll (an internal error)
  | 'refuse-submit' // the create call is refused by the content check (HTTP 400)
  | 'refuse-task' // accepted, then the output check refuses it on the second poll
  | 'expired' // done, but the video link answers 403 (expired signature) / the content 404
  | 'busy' // the create call answers 429
  | 'unknown-task' // every query answers that the task does not exist
  | 'flaky-polls' // the first 12 queries of each job answer 503 (a provider restarting), then as normal
  | 'flaky-content' // done, but the first download of each clip answers 502
  | 'no-id' // the create call starts the job but answers 200 without its id (a gateway rewriting the answer)

export type FakeVideoJob = {
  id: string
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled'
  polls: number
  /** The create call's body as the provider got it. */
  input: unknown
  progress: number
  failure: { code: string; message: string } | null
}

export type VideoJobStoreOptions = { behaviour: VideoBehaviour; slowPolls: number }

export const CONTENT_REFUSAL = 'The request failed because the output video may contain sensitive information.'
export const UPSTREAM_FAILURE = 'Internal error: the generation service failed.'

export class VideoJobStore {
  readonly jobs = new Map<string, FakeVideoJob>()
  private next = 0
  constructor(public options: VideoJobStoreOptions) {}

  create(input: unknown, prefix: string): FakeVideoJob {
    const job: FakeVideoJob = { id: `${prefix}-${Date.now().toString(36)}-${++this.next}`, status: 'queued', polls: 0, input, progress: 0, failure: null }
    this.jobs.set(job.id, job)
    return job
  }

  /** A query: the job one step further along, or null when it is unknown. */
  poll(id: string): FakeVideoJob | null {
    const job = this.jobs.get(id)
    if (!job || this.options.behaviour === 'unknown-task') return null
    if (job.status === 'cancelled' || job.status === 'succeeded' || job.status === 'failed') return job
    job.polls++
    const { behaviour, slowPolls } = this.options
    const finishAt = behaviour === 'slow' ? slowPolls : 2
    if (job.polls < finishAt) {
      job.status = 'running'
      job.progress = Math.min(95, Math.round((job.polls / finishAt) * 100))
      return job
    }
    if (behaviour === 'failing') {
      job.status = 'failed'
      job.failure = { code: 'InternalServiceError', message: UPSTREAM_FAILURE }
    } else if (behaviour === 'refuse-task') {
      job.status = 'failed'
      job.failure = { code: 'OutputVideoSensitiveContentDetected', message: CONTENT_REFUSAL }
    } else {
      job.status = 'succeeded'
      job.progress = 100
    }
    return job
  }

  /** Cancels a job that is still queued (as the providers do); true when it was. */
  cancel(id: string): boolean {
    const job = this.jobs.get(id)
    if (!job || job.status !== 'queued') return false
    job.status = 'cancelled'
    return true
  }
}

let clip: Promise<Buffer> | null = null

/** A 1 s 320×240 H.264 MP4 (FFmpeg's test pattern), made once per process. */
export function fakeClip(): Promise<Buffer> {
  clip ??= (async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'fake-clip-'))
    try {
      const file = path.join(dir, 'clip.mp4')
      await runFfmpeg([
        '-v',
        'error',
        '-f',
        'lavfi',
        '-i',
        'testsrc=size=320x240:rate=12',
        '-t',
        '1',
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-pix_fmt',
        'yuv420p',
        file,
      ])
      return await readFile(file)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })()
  return clip
}
