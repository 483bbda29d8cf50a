/**
 * One interface for every generation backend. The worker (lib/tasks/run-task.ts) drives
 * an adapter; adapters know their backend's wire protocol and nothing of our database.
 */
export const BACKEND_KINDS = ['sd-webui', 'comfyui', 'openai-images', 'mj-proxy', 'demo', 'ark-video', 'dashscope-video', 'openai-video'] as const
export type BackendKind = (typeof BACKEND_KINDS)[number]

/**
 * Backends a custom model's LoRA can be used with. The demo renderer ignores it (its
 * pictures are procedural); OpenAI images and Midjourney cannot load one.
 */
export const LORA_BACKENDS: readonly string[] = ['sd-webui', 'comfyui', 'demo']

/** What the operator configured for one backend (an AiModel row, secret decrypted). */
export type BackendConfig = {
  endpoint: string
  /** sd-webui: "user:pass" for --api-auth; comfyui: optional bearer token; openai-images: API key. */
  secret: string | null
  /** Checkpoint / model name to use unless the job names one. */
  checkpoint: string | null
  /** Backend-specific settings, e.g. ComfyUI workflow templates or the OpenAI model name. */
  options: Record<string, unknown>
}

export type JobMode = 'txt2img' | 'img2img' | 'inpaint' | 'lineart'

/** A task as a backend sees it: parameters resolved, images loaded. */
export type GenerationJob = {
  /** Our task id: use it as the backend's idempotency/trace id where the protocol allows. */
  taskId: string
  mode: JobMode
  prompt: string
  negativePrompt: string
  width: number
  height: number
  steps: number
  cfgScale: number
  /** -1 = random. */
  seed: number
  sampler: string | null
  /** Images wanted. */
  count: number
  /** img2img / inpaint: 0 keeps the input, 1 ignores it. */
  denoisingStrength: number | null
  /** Overrides BackendConfig.checkpoint (custom models). */
  checkpoint: string | null
  /**
   * A custom model's LoRA. Each backend applies it its own way: SD WebUI as `<lora:name:weight>`
   * in the prompt, ComfyUI as a LoraLoader node; backends without LoRAs refuse the job.
   */
  lora?: { name: string; weight: number } | null
  /** PNG bytes: img2img and inpaint input. */
  initImage: Buffer | null
  /** PNG bytes, white = repaint, black = keep (SD WebUI convention). */
  maskImage: Buffer | null
  /** PNG bytes: line art, black lines on white (lineart mode). */
  controlImage: Buffer | null
  /** lineart mode: ControlNet preprocessor, model and weight. */
  controlnet: { module: string; model: string; weight: number } | null
  /** Midjourney proxy jobs: what to submit (the SD fields above are unused then). */
  mj?: MjJob | null
  /** Video jobs (VIDEO_TEXT2VIDEO, VIDEO_IMG2VIDEO): what to make (the SD fields above are unused then). */
  video?: VideoJob | null
}

/** A clip to make from a prompt, optionally starting (and ending) on given frames. */
export type VideoJob = {
  durationSec: number
  /** Aspect ratio such as '16:9', '9:16', '1:1'. */
  ratio: string
  /** '480p' | '720p' | '1080p'. */
  resolution: string
  /** Image bytes (PNG/JPEG/WebP): the first frame, for image-to-video. */
  firstFrame: Buffer | null
  /** Image bytes: the last frame, where the model supports it. */
  lastFrame: Buffer | null
}

/** One produced clip: the file as the provider gave it (MP4), its poster where the provider offers one, and what the provider says of it. */
export type BackendVideo = { bytes: Buffer; poster: Buffer | null; width: number | null; height: number | null; durationSec: number | null }

/** A Midjourney job: a new imagine/blend/describe, or a button pressed on an earlier task. */
export type MjJob = {
  action: 'IMAGINE' | 'BLEND' | 'DESCRIBE' | 'ACTION'
  /** IMAGINE: the final prompt with its parameters; ACTION: the prompt a modal asks for (vary region, custom zoom). */
  prompt: string
  /** IMAGINE: image prompts; BLEND: 2-5 images; DESCRIBE: the one image. PNG bytes. */
  images: Buffer[]
  /** BLEND only. */
  dimensions: 'PORTRAIT' | 'SQUARE' | 'LANDSCAPE' | null
  /** ACTION: the proxy's id of the task whose button is pressed, and the button. */
  parentUpstreamId: string | null
  customId: string | null
  /** Vary (Region): white = the area to change. */
  mask: Buffer | null
  /** Where the proxy may POST progress (a hint; polling stays the source of truth), or null. */
  notifyHook: string | null
}

/** A button a finished Midjourney task offers (upscale, variation, ...), as the proxy gave it. */
export type ResultButton = { customId: string; label: string; emoji: string; style: number }

/** One produced image: the bytes as the backend gave them (PNG, JPEG or WebP). */
export type BackendImage = { bytes: Buffer; seed: number | null }

/** Besides the images: what a finished job offers next (buttons), text results (describe's prompts) and clips (video jobs, with `images` empty). */
type CompletedExtras = { buttons?: ResultButton[]; prompts?: string[]; videos?: BackendVideo[] }

export type SubmitOutcome =
  /** Synchronous backends (SD WebUI, OpenAI images, demo): the images are here. */
  | ({ kind: 'completed'; images: BackendImage[]; log?: unknown } & CompletedExtras)
  /** Asynchronous backends (ComfyUI, Midjourney proxy): the job is queued there under this id. */
  | { kind: 'accepted'; upstreamId: string; log?: unknown }

export type WaitOutcome = { kind: 'completed'; images: BackendImage[]; log?: unknown } & CompletedExtras

export type RunContext = {
  /** Aborted at the task's deadline, on cancellation, or when the worker shuts down. */
  signal: AbortSignal
  /** Progress 0-100 as the backend reports it. */
  onProgress(progress: number): void
  /** An intermediate picture while the job runs (image bytes); the worker keeps the latest. */
  onPreview?(image: Buffer): void
  /**
   * Calls `listener` when the backend's own callback says the job changed (a hint to poll
   * now rather than at the next interval). Returns the unsubscribe function.
   */
  onNudge?(listener: () => void): () => void
}

export type BackendErrorCode =
  /** Could not reach the backend (connection refused, DNS, TLS). */
  | 'UNREACHABLE'
  /** The backend did not answer in time. */
  | 'TIMEOUT'
  /** The backend is busy (HTTP 429/503, queue full): try the submit again later. */
  | 'BUSY'
  /** The backend refused the job itself (bad parameters, unknown model, content policy). */
  | 'REJECTED'
  /** The answer did not follow the protocol. */
  | 'BAD_RESPONSE'
  /** The backend accepted the job and then failed it. */
  | 'UPSTREAM_FAILED'
  /** Credentials were refused. */
  | 'UNAUTHORIZED'
  /** ctx.signal was aborted. */
  | 'ABORTED'

/**
 * Every failure an adapter reports. `retryable` says whether trying the same submit
 * again could succeed (network, 5xx, busy); the worker retries only the submit step
 * and only when the backend has not accepted the job.
 */
export class BackendError extends Error {
  constructor(
    readonly code: BackendErrorCode,
    message: string,
    readonly retryable: boolean,
    readonly detail?: unknown,
    /** What the task's owner should read instead of the generic message for `code` (e.g. the banned word). */
    readonly userMessage?: string,
  ) {
    super(message)
    this.name = 'BackendError'
  }
}

/**
 * A submit answered 2xx in a form we cannot read: the backend may have queued the job, so the
 * retry asks it first (its probe) instead of queueing a second copy.
 */
export class UnreadAcceptanceError extends BackendError {
  constructor(message: string, status: number) {
    super('BAD_RESPONSE', message, true, { status })
  }
}

/** Whether the backend has a job, and its id when it can be followed (null: it ran but cannot be fetched). */
export type ProbeResult = { known: false } | { known: true; upstreamId: string | null }

export interface BackendAdapter {
  readonly kind: BackendKind
  /** Starts the job; throws BackendError. */
  submit(job: GenerationJob, ctx: RunContext): Promise<SubmitOutcome>
  /** Asynchronous backends: waits for an accepted job (also after a worker restart) and returns its images; throws BackendError. */
  wait?(upstreamId: string, job: GenerationJob, ctx: RunContext): Promise<WaitOutcome>
  /**
   * After a worker died in the middle of submit: does the backend know this job? Lets the
   * worker resume an accepted job instead of submitting it twice.
   */
  probe?(job: GenerationJob): Promise<ProbeResult>
  /** Best-effort stop of a running job (cancel, deadline), known by its id or our task's. Never throws. */
  interrupt?(upstreamId: string | null, job: Pick<GenerationJob, 'taskId'>): Promise<void>
  /** 测试连接: calls a health or model-list endpoint and says what it found. Never throws. */
  test(): Promise<TestResult>
}

/** What 测试连接 may show: facts parsed out of the answer (a failure: our error code), never a body. */
export type TestDetail = { version?: string; models?: string[]; code?: BackendErrorCode }
export type TestResult = { ok: boolean; message: string; detail?: TestDetail }

export type AdapterFactory = (config: BackendConfig) => BackendAdapter
