// A fake midjourney-proxy (docs/PROTOCOLS.md §1, behaving as §1.10 describes): submit
// imagine/blend/describe/action/modal with codes 1/21/22/23/24/3/4, tasks that move
// NOT_START → SUBMITTED → IN_PROGRESS (progress strings, preview imageUrl) → SUCCESS (grid
// image served here, buttons with real customId shapes) or FAILURE, MODAL for vary region and
// custom zoom, fetch, list-by-condition, cancel, the mj-api-secret check, and a notifyHook
// that can be lost, duplicated, late or flaky.
import { randomBytes } from 'node:crypto'
import type http from 'node:http'
import sharp from 'sharp'
import { at } from '../helpers/present'
import { decodeBase64Image, isImage, jsonBody, record, sendJson, startServer, type RecordedRequest } from './common'

export type NotifyMode = 'normal' | 'lost' | 'duplicate' | 'late' | 'flaky'

export type FakeMjOptions = {
  /** mj-api-secret every /mj route requires (null: open, like novicezk without mj.api-secret). */
  secret: string | null
  /** Time between two state changes of a job. */
  stepMs: number
  /** Jobs an account runs at once; more wait as NOT_START (code 22). */
  coreSize: number
  /** Jobs that may wait; beyond, code 23. */
  queueSize: number
  bannedWords: string[]
  notify: NotifyMode
  /** 'late': how long each callback is held back. */
  lateMs: number
  /** false: an old build without list-by-condition (404). */
  listByCondition: boolean
  /** The open novicezk build: no buttons in tasks, no /submit/action, U/V/reroll by /submit/change. */
  legacy: boolean
  /** A broken relay: describes succeed with no prompt text at all. */
  emptyDescribe: boolean
}

type Button = { customId: string; emoji: string; label: string; type: 2; style: number }
type Kind = 'grid' | 'upscale' | 'describe'

type FakeTask = {
  id: string
  action: string
  status: string
  progress: string
  prompt: string
  promptEn: string
  description: string
  state: string | null
  submitTime: number
  startTime: number | null
  finishTime: number | null
  imageUrl: string | null
  failReason: string | null
  buttons: Button[]
  properties: Record<string, unknown>
  /** Not part of the wire object. */
  own: {
    hook: string | null
    kind: Kind
    colours: number[]
    customId: string | null
    parentId: string | null
    modal: 'inpaint' | 'zoom' | null
    mask: Buffer | null
    pressed: Map<string, string>
    isStarted: boolean
    source: Buffer | null
  }
}

const PROGRESS = ['0%', '15%', '31%', '46%', '62%', '78%', '93%']
const PUBLIC_FIELDS = [
  'id',
  'action',
  'status',
  'progress',
  'prompt',
  'promptEn',
  'description',
  'state',
  'submitTime',
  'startTime',
  'finishTime',
  'imageUrl',
  'failReason',
  'buttons',
  'properties',
] as const

export type FakeMj = Awaited<ReturnType<typeof startFakeMjProxy>>

export async function startFakeMjProxy(initial: Partial<FakeMjOptions> = {}) {
  let options: FakeMjOptions = {
    secret: null,
    stepMs: 20,
    coreSize: 3,
    queueSize: 10,
    bannedWords: ['badword'],
    notify: 'normal',
    lateMs: 300,
    listByCondition: true,
    legacy: false,
    emptyDescribe: false,
    ...initial,
  }
  const calls: RecordedRequest[] = []
  const tasks = new Map<string, FakeTask>()
  const images = new Map<string, Promise<Buffer>>()
  const deliveries: { hook: string; status: string; progress: string; ok: boolean }[] = []
  const forced: number[] = []
  const timers = new Set<NodeJS.Timeout>()
  let sequence = 0
  let queueRefusals = 0
  let colourSeed = 0x204060

  const later = (ms: number, fn: () => void) => {
    const timer = setTimeout(() => (timers.delete(timer), fn()), ms)
    timers.add(timer)
  }
  const newId = () => `${Date.now()}${String(++sequence % 1000).padStart(3, '0')}`
  const hash = () => randomBytes(16).toString('hex')
  const running = () => [...tasks.values()].filter((t) => t.own.isStarted && !['SUCCESS', 'FAILURE'].includes(t.status)).length
  const waiting = () => [...tasks.values()].filter((t) => t.status === 'NOT_START' && !t.own.isStarted)
  const wire = (t: FakeTask) => Object.fromEntries(PUBLIC_FIELDS.filter((k) => !(options.legacy && k === 'buttons')).map((k) => [k, t[k]]))

  function notify(task: FakeTask) {
    if (!task.own.hook || options.notify === 'lost') return
    const body = JSON.stringify(wire(task))
    const send = () => {
      const entry = { hook: task.own.hook!, status: task.status, progress: task.progress, ok: false }
      deliveries.push(entry)
      void fetch(task.own.hook!, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(
        (r) => ((entry.ok = r.ok), r.body?.cancel()),
        () => undefined,
      )
    }
    const sendTwice = () => {
      send()
      send()
    }
    const roll = Math.random()
    if (options.notify === 'normal') send()
    else if (options.notify === 'duplicate') sendTwice()
    else if (options.notify === 'late') later(options.lateMs, send)
    else if (roll < 0.3) return
    else if (roll < 0.6) sendTwice()
    else later(Math.round(roll * options.lateMs), send)
  }

  function change(task: FakeTask, patch: Partial<FakeTask>) {
    Object.assign(task, patch)
    notify(task)
  }

  function gridButtons(h: string): Button[] {
    const b = (customId: string, label: string, emoji = '') => ({ customId, emoji, label, type: 2 as const, style: 2 })
    return [1, 2, 3, 4]
      .map((i) => b(`MJ::JOB::upsample::${i}::${h}`, `U${i}`))
      .concat(
        b(`MJ::JOB::reroll::0::${h}::SOLO`, '', '🔄'),
        [1, 2, 3, 4].map((i) => b(`MJ::JOB::variation::${i}::${h}`, `V${i}`)),
      )
  }
  function upscaleButtons(h: string): Button[] {
    const b = (customId: string, label: string, emoji = '') => ({ customId, emoji, label, type: 2 as const, style: 2 })
    return [
      b(`MJ::JOB::upsample_v6_2x_subtle::1::${h}::SOLO`, 'Upscale (Subtle)'),
      b(`MJ::JOB::upsample_v6_2x_creative::1::${h}::SOLO`, 'Upscale (Creative)'),
      b(`MJ::JOB::high_variation::1::${h}::SOLO`, 'Vary (Strong)', '🪄'),
      b(`MJ::JOB::low_variation::1::${h}::SOLO`, 'Vary (Subtle)', '🪄'),
      b(`MJ::Inpaint::1::${h}::SOLO`, 'Vary (Region)', '🖌️'),
      b(`MJ::Outpaint::50::1::${h}::SOLO`, 'Zoom Out 2x', '🔍'),
      b(`MJ::Outpaint::75::1::${h}::SOLO`, 'Zoom Out 1.5x', '🔍'),
      b(`MJ::CustomZoom::${h}`, 'Custom Zoom', '🔍'),
      ...(['left', 'right', 'up', 'down'] as const).map((d) => b(`MJ::JOB::pan_${d}::1::${h}::SOLO`, '', { left: '⬅️', right: '➡️', up: '⬆️', down: '⬇️' }[d])),
      b(`MJ::JOB::animate_high::1::${h}::SOLO`, 'Animate (High motion)', '🎞️'),
      b(`MJ::BOOKMARK::${h}`, '', '❤️'),
    ]
  }
  const describeButtons = (): Button[] =>
    ['1️⃣', '2️⃣', '3️⃣', '4️⃣']
      .map((emoji, i) => ({ customId: `MJ::Job::PicReader::${i + 1}`, emoji, label: '', type: 2 as const, style: 2 }))
      .concat({ customId: 'MJ::Picread::Retry', emoji: '🔄', label: '', type: 2, style: 2 })

  function nextColours(): number[] {
    return [0, 1, 2, 3].map(() => (colourSeed = (colourSeed * 1103515245 + 12345) & 0xffffff))
  }

  function create(action: string, prompt: string, body: Record<string, unknown>, own: Partial<FakeTask['own']>): FakeTask {
    const task: FakeTask = {
      id: newId(),
      action,
      status: 'NOT_START',
      progress: '0%',
      prompt,
      promptEn: prompt,
      description: action === 'IMAGINE' ? `/imagine ${prompt}` : `/${action.toLowerCase()}`,
      state: typeof body.state === 'string' ? body.state : null,
      submitTime: Date.now(),
      startTime: null,
      finishTime: null,
      imageUrl: null,
      failReason: null,
      buttons: [],
      properties: { notifyHook: body.notifyHook ?? null, discordInstanceId: '1118138338562560102' },
      own: {
        hook: typeof body.notifyHook === 'string' ? body.notifyHook : null,
        kind: 'grid',
        colours: nextColours(),
        customId: null,
        parentId: null,
        modal: null,
        mask: null,
        pressed: new Map(),
        isStarted: false,
        source: null,
        ...own,
      },
    }
    tasks.set(task.id, task)
    return task
  }

  /** Code 1 and off it goes, 22 when it has to wait, 23 when even the waiting room is full. */
  function admit(task: FakeTask, res: http.ServerResponse) {
    const ahead = waiting().filter((t) => t !== task).length
    if (running() >= options.coreSize && ahead >= options.queueSize) {
      // Not kept: like novicezk, a refused job is forgotten (its id fetches nothing).
      tasks.delete(task.id)
      queueRefusals++
      return sendJson(res, 200, { code: 23, description: '队列已满，请稍后尝试', result: task.id, properties: { discordInstanceId: '1118138338562560102' } })
    }
    if (running() >= options.coreSize) {
      return sendJson(res, 200, {
        code: 22,
        description: `排队中，前面还有${ahead}个任务`,
        result: task.id,
        properties: { numberOfQueues: ahead, discordInstanceId: '1118138338562560102' },
      })
    }
    start(task)
    sendJson(res, 200, { code: 1, description: '提交成功', result: task.id, properties: { discordInstanceId: '1118138338562560102' } })
  }

  function start(task: FakeTask) {
    task.own.isStarted = true
    later(options.stepMs, () => {
      change(task, { status: 'SUBMITTED', startTime: Date.now() })
      if (task.prompt.includes('__SLOW__')) return
      later(options.stepMs, () => run(task, 0))
    })
  }

  function run(task: FakeTask, step: number) {
    if (task.status === 'FAILURE') return
    const steps = task.own.kind === 'grid' ? PROGRESS : ['0%', '50%']
    if (step < steps.length) {
      const preview = step > 0 ? `${url}/cdn/${task.id}-preview-${step}.png` : null
      if (preview)
        images.set(
          `${task.id}-preview-${step}.png`,
          blurred(task.own.kind === 'grid' ? grid(task.own.colours) : solid(at(task.own.colours, 0), 256), 12 - step),
        )
      change(task, { status: 'IN_PROGRESS', progress: at(steps, step), imageUrl: preview })
      if (task.prompt.includes('__STUCK__') && step === 3) return
      if (task.prompt.includes('__FAIL__') && step === 2) return later(options.stepMs, () => finish(task, 'Request cancelled due to image filters'))
      return later(options.stepMs, () => run(task, step + 1))
    }
    finish(task, null)
  }

  function finish(task: FakeTask, failReason: string | null) {
    if (task.status === 'FAILURE') return
    if (failReason) change(task, { status: 'FAILURE', progress: '', failReason, finishTime: Date.now() })
    else {
      const h = hash()
      const file = `${task.id}.png`
      // A describe's imageUrl is the picture it was given.
      images.set(
        file,
        task.own.kind === 'upscale'
          ? solid(at(task.own.colours, 0), 256)
          : task.own.kind === 'describe'
            ? Promise.resolve(task.own.source ?? Buffer.alloc(0))
            : grid(task.own.colours),
      )
      const buttons = task.own.kind === 'grid' ? gridButtons(h) : task.own.kind === 'upscale' ? upscaleButtons(h) : describeButtons()
      const finalPrompt = task.own.kind === 'describe' ? (options.emptyDescribe ? '' : describedText()) : `${task.prompt} --v 6.1`
      change(task, {
        status: 'SUCCESS',
        progress: '100%',
        imageUrl: `${url}/cdn/${file}`,
        buttons,
        finishTime: Date.now(),
        properties: { ...task.properties, finalPrompt, messageHash: h },
      })
    }
    const next = waiting()[0]
    if (next) start(next)
  }

  function imagine(body: Record<string, unknown>, res: http.ServerResponse) {
    const prompt = typeof body.prompt === 'string' ? body.prompt.trim() : ''
    if (!prompt) return sendJson(res, 200, { code: 4, description: 'prompt不能为空', result: null, properties: {} })
    const banned = options.bannedWords.find((w) => prompt.toLowerCase().includes(w.toLowerCase()))
    if (banned) return sendJson(res, 200, { code: 24, description: '可能包含敏感词', result: null, properties: { promptEn: prompt, bannedWord: banned } })
    return admit(create('IMAGINE', prompt, body, {}), res)
  }

  async function action(body: Record<string, unknown>, res: http.ServerResponse) {
    const parent = tasks.get(String(body.taskId ?? ''))
    if (!parent) return sendJson(res, 404, { code: 3, description: '关联任务不存在或已失效', result: null, properties: {} })
    if (parent.status !== 'SUCCESS') return sendJson(res, 200, { code: 4, description: '关联任务状态错误', result: null, properties: {} })
    const customId = String(body.customId ?? '')
    if (!parent.buttons.some((b) => b.customId === customId)) return sendJson(res, 200, { code: 4, description: '按钮不存在', result: null, properties: {} })
    const earlier = tasks.get(parent.own.pressed.get(customId) ?? '')
    if (earlier && customId.startsWith('MJ::JOB::upsample::')) {
      return sendJson(res, 200, { code: 21, description: '任务已存在', result: earlier.id, properties: { status: earlier.status, imageUrl: earlier.imageUrl } })
    }
    // customId is one of the parent's buttons, so a U/V or PicReader index is 1–4.
    const index = Number(customId.split('::')[3] ?? 1)
    const isUpscale = customId.startsWith('MJ::JOB::upsample::')
    const colours = isUpscale
      ? [at(parent.own.colours, index - 1)]
      : customId.startsWith('MJ::JOB::variation::')
        ? nextColours().map((c, i) => (i === 0 ? at(parent.own.colours, index - 1) : c))
        : nextColours()
    const modal = customId.startsWith('MJ::Inpaint::') ? 'inpaint' : customId.startsWith('MJ::CustomZoom::') ? 'zoom' : null
    const kind: Kind = isUpscale ? 'upscale' : customId.startsWith('MJ::Picread::') ? 'describe' : 'grid'
    const prompt = customId.startsWith('MJ::Job::PicReader::') ? at(describedText().split('\n\n'), index - 1).slice(4) : parent.prompt
    const child = create(actionOf(customId), prompt, body, { kind, colours, customId, parentId: parent.id, modal, source: parent.own.source })
    parent.own.pressed.set(customId, child.id)
    if (modal) {
      child.status = 'MODAL'
      return sendJson(res, 200, { code: 21, description: 'Waiting for window confirm', result: child.id, properties: {} })
    }
    admit(child, res)
  }

  async function modal(body: Record<string, unknown>, res: http.ServerResponse) {
    const task = tasks.get(String(body.taskId ?? ''))
    if (!task) return sendJson(res, 404, { code: 3, description: '任务不存在', result: null, properties: {} })
    if (task.status !== 'MODAL') return sendJson(res, 200, { code: 4, description: '任务状态错误', result: null, properties: {} })
    if (task.own.modal === 'inpaint') {
      const mask = decodeBase64Image(body.maskBase64)
      if (!mask || !(await isImage(mask))) return sendJson(res, 200, { code: 4, description: 'maskBase64 参数错误', result: null, properties: {} })
      task.own.mask = mask
    }
    const prompt = typeof body.prompt === 'string' && body.prompt ? body.prompt : task.prompt
    if (task.own.modal === 'zoom' && !/--zoom\s+[\d.]+/.test(prompt))
      return sendJson(res, 200, { code: 4, description: '自定义变焦需要 --zoom 参数', result: null, properties: {} })
    Object.assign(task, { prompt, promptEn: prompt, status: 'NOT_START' })
    admit(task, res)
  }

  async function images64(list: unknown, min: number, max: number, res: http.ServerResponse): Promise<Buffer[] | null> {
    const items = Array.isArray(list) ? list : []
    const decoded = items.map(decodeBase64Image)
    const valid =
      items.every((v) => typeof v === 'string' && v.startsWith('data:image/')) &&
      (await Promise.all(decoded.map((b) => (b ? isImage(b) : false)))).every(Boolean)
    if (!valid || items.length < min || items.length > max) {
      sendJson(res, 200, { code: 4, description: 'base64格式错误或数量不对', result: null, properties: {} })
      return null
    }
    return decoded as Buffer[]
  }

  const fake = await startServer(async (req, res, reqUrl, raw) => {
    const body = jsonBody(raw)
    record(calls, req, reqUrl, body)
    const path = reqUrl.pathname
    if (req.method === 'GET' && path.startsWith('/cdn/')) {
      const bytes = await images.get(path.slice(5))
      if (!bytes) return sendJson(res, 404, {})
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': bytes.length })
      return res.end(bytes)
    }
    if (options.secret && req.headers['mj-api-secret'] !== options.secret) {
      res.writeHead(401)
      return res.end()
    }
    const input = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>
    const route = `${req.method} ${path}`
    if (req.method === 'POST' && path.startsWith('/mj/submit/') && path !== '/mj/submit/modal' && forced.length > 0) {
      const code = forced.shift()!
      return sendJson(res, 200, {
        code,
        description: code === 23 ? '队列已满，请稍后尝试' : '系统异常',
        result: code === 23 ? newId() : null,
        properties: { discordInstanceId: '1118138338562560102' },
      })
    }
    if (route === 'POST /mj/submit/imagine') {
      if (!(await images64(input.base64Array ?? [], 0, 5, res))) return
      return imagine(input, res)
    }
    if (route === 'POST /mj/submit/blend') {
      if (!(await images64(input.base64Array, 2, 5, res))) return
      return admit(create('BLEND', '', input, {}), res)
    }
    if (route === 'POST /mj/submit/describe') {
      const source = await images64([input.base64], 1, 1, res)
      if (!source) return
      return admit(create('DESCRIBE', '', input, { kind: 'describe', source: source[0] }), res)
    }
    if (route === 'POST /mj/submit/action' && !options.legacy) return action(input, res)
    if (route === 'POST /mj/submit/change') {
      const parent = tasks.get(String(input.taskId ?? ''))
      if (parent && !['IMAGINE', 'VARIATION', 'REROLL', 'BLEND'].includes(parent.action))
        return sendJson(res, 200, { code: 4, description: '关联任务不允许执行变化', result: null, properties: {} })
      const pattern =
        input.action === 'REROLL' ? 'MJ::JOB::reroll::0::' : `MJ::JOB::${input.action === 'UPSCALE' ? 'upsample' : 'variation'}::${Number(input.index)}::`
      const button = parent?.buttons.find((b) => b.customId.startsWith(pattern))
      return action({ ...input, customId: button?.customId ?? pattern }, res)
    }
    if (route === 'POST /mj/submit/modal') return modal(input, res)
    if (route === 'POST /mj/task/list-by-condition') {
      if (!options.listByCondition) return sendJson(res, 404, { timestamp: Date.now(), status: 404, error: 'Not Found', path })
      const ids = Array.isArray(input.ids) ? input.ids.map(String) : []
      return sendJson(
        res,
        200,
        ids.flatMap((id) => (tasks.has(id) ? [wire(tasks.get(id)!)] : [])),
      )
    }
    const fetchId = /^\/mj\/task\/([^/]+)\/fetch$/.exec(path)?.[1]
    if (req.method === 'GET' && fetchId !== undefined) {
      const task = tasks.get(decodeURIComponent(fetchId))
      if (!task) return void res.writeHead(200).end()
      return sendJson(res, 200, wire(task))
    }
    const cancelId = /^\/mj\/task\/([^/]+)\/cancel$/.exec(path)?.[1]
    if (req.method === 'POST' && cancelId !== undefined) {
      const task = tasks.get(decodeURIComponent(cancelId))
      if (task && !['SUCCESS', 'FAILURE'].includes(task.status)) change(task, { status: 'FAILURE', failReason: '取消任务', progress: '' })
      return sendJson(res, 200, { code: 1, description: '成功', result: null })
    }
    if (route === 'GET /mj/account/list') return sendJson(res, 200, [{ id: '1118138338562560102', channelId: '1118138338562560102', enable: true }])
    sendJson(res, 404, { timestamp: Date.now(), status: 404, error: 'Not Found', path })
  })
  const url = fake.url

  return {
    url,
    calls,
    deliveries,
    set(next: Partial<FakeMjOptions>) {
      options = { ...options, ...next }
    },
    /** The next submits answer these codes (23 queue full, 9 system error) whatever they ask. */
    answerNext(...codes: number[]) {
      forced.push(...codes)
    },
    task: (id: string) => (tasks.has(id) ? wire(tasks.get(id)!) : null),
    /** Submits refused with code 23 because the waiting queue was full (answerNext's forced codes not counted). */
    queueRefusals: () => queueRefusals,
    /** The quadrant colours of a grid (0xRRGGBB), or the one colour of an upscale. */
    coloursOf: (id: string) => tasks.get(id)?.own.colours ?? [],
    /** The mask a vary-region job received. */
    maskOf: (id: string) => tasks.get(id)?.own.mask ?? null,
    bodies: (path: string) => calls.filter((c) => c.method === 'POST' && c.path === path).map((c) => c.body as Record<string, unknown>),
    async close() {
      for (const timer of timers) clearTimeout(timer)
      await fake.close()
    },
  }
}

function actionOf(customId: string): string {
  if (customId.startsWith('MJ::JOB::upsample::')) return 'UPSCALE'
  if (/variation/.test(customId) || customId.startsWith('MJ::Inpaint::')) return 'VARIATION'
  if (customId.includes('::reroll::')) return 'REROLL'
  if (customId.startsWith('MJ::Outpaint::') || customId.startsWith('MJ::CustomZoom::')) return 'ZOOM'
  if (customId.includes('::pan_')) return 'PAN'
  if (customId.startsWith('MJ::JOB::upsample_')) return 'UPSCALE_HD'
  if (customId.startsWith('MJ::Picread::')) return 'DESCRIBE'
  return 'IMAGINE'
}

function describedText(): string {
  return [
    '1️⃣ an orange cat sitting on a windowsill, soft morning light --ar 1:1',
    '2️⃣ a ginger kitten in watercolor style, pastel palette --ar 1:1',
    '3️⃣ cozy illustration of a cat by a window, warm tones --ar 1:1',
    '4️⃣ photorealistic tabby cat portrait, shallow depth of field --ar 1:1',
  ].join('\n\n')
}

const rgb = (n: number) => ({ r: (n >>> 16) & 255, g: (n >>> 8) & 255, b: n & 255 })

function solid(colour: number, size: number): Promise<Buffer> {
  return sharp({ create: { width: size, height: size, channels: 3, background: rgb(colour) } })
    .png()
    .toBuffer()
}

/** A small, blurry version, like Midjourney's previews while it draws. */
async function blurred(image: Promise<Buffer>, sigma: number): Promise<Buffer> {
  return sharp(await image)
    .resize(128)
    .blur(Math.max(1, sigma))
    .png()
    .toBuffer()
}

/** A 256×256 2×2 grid: quadrant i (U/V i+1) is colours[i], as Midjourney numbers them. */
async function grid(colours: number[]): Promise<Buffer> {
  const tiles = await Promise.all(colours.map((c) => solid(c, 128)))
  return sharp({ create: { width: 256, height: 256, channels: 3, background: '#000000' } })
    .composite(tiles.map((input, i) => ({ input, left: (i % 2) * 128, top: Math.floor(i / 2) * 128 })))
    .png()
    .toBuffer()
}
