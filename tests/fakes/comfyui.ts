// A fake ComfyUI (docs/PROTOCOLS.md §3): /prompt with real validation of the core nodes our
// workflows use, one queue run in order, /queue, /history ({} until done), /view,
// /upload/image, /interrupt, /system_stats, /object_info, and /ws with the real frames.
import { randomUUID } from 'node:crypto'
import type http from 'node:http'
import { WebSocketServer, type WebSocket } from 'ws'
import { at } from '../helpers/present'
import { batchSize, executionOrder, nodeOf, outputNodes, validate, VIDEO_OUTPUTS, type Graph } from './comfyui-nodes'
import { fakeClip } from './video-jobs'
import { fakePng, jsonBody, parseMultipart, pause, record, sendJson, sendText, startServer, type Multipart, type RecordedRequest } from './common'

export type ComfyBehaviour =
  | 'normal'
  | 'slow' // stepMs per sampling step (100 ms unless set)
  | 'failing' // POST /prompt answers 500
  | 'hanging' // POST /prompt never answers
  | 'malformed' // POST /prompt queues the workflow but answers 200 without a prompt_id (a relay that mangles the answer)
  | 'reject' // no checkpoint is known: every workflow fails validation with node_errors
  | 'execution-error' // the sampler fails half way (execution_error, history status error)
  | 'socket-drop' // websockets are cut after the second progress frame; history still finishes

export type FakeComfyOptions = {
  behaviour: ComfyBehaviour
  stepMs?: number
  /** A reverse proxy's bearer token, required on every route and the websocket. */
  token?: string | null
  checkpoints?: string[]
  controlnets?: string[]
  /** Files in models/loras, as LoraLoader lists them. */
  loras?: string[]
  /** Builds before client-chosen prompt ids make up their own. */
  ignorePromptId?: boolean
}

type BlipRoute = 'history' | 'queue' | 'view'

type Queued = { id: string; number: number; graph: Graph; clientId: string | null; interrupted: boolean }

export type FakeComfy = Awaited<ReturnType<typeof startFakeComfyui>>

export async function startFakeComfyui(initial: Partial<FakeComfyOptions> = {}) {
  let options: FakeComfyOptions = {
    behaviour: 'normal',
    checkpoints: ['sd15.safetensors', 'anything-v5.safetensors'],
    controlnets: ['control_v11p_sd15_lineart.pth', 'control_v11p_sd15s2_lineart_anime.pth'],
    loras: ['xiaolimao_v2.safetensors', 'styles/pixel-art.safetensors'],
    ...initial,
  }
  const calls: RecordedRequest[] = []
  const pending: Queued[] = []
  let running: Queued | null = null
  const history = new Map<string, unknown>()
  const inputs = new Map<string, Buffer>()
  const outputs = new Map<string, Buffer>()
  const sockets = new Map<WebSocket, string>()
  let promptNumber = 0
  let fileNumber = 0
  // Network blips: the next N GETs of a route are cut off or answered 502 (a reverse proxy's).
  const blips = new Map<BlipRoute, { left: number; how: 'drop' | 502 }>()
  function blip(route: BlipRoute, req: http.IncomingMessage, res: http.ServerResponse): boolean {
    const planned = blips.get(route)
    if (!planned || planned.left <= 0) return false
    planned.left--
    if (planned.how === 'drop') req.socket.destroy()
    else sendText(res, 502, '<html><body><h1>502 Bad Gateway</h1></body></html>', 'text/html')
    return true
  }

  const stepMs = () => options.stepMs ?? (options.behaviour === 'slow' ? 100 : 2)
  const authorised = (req: http.IncomingMessage) => !options.token || req.headers.authorization === `Bearer ${options.token}`
  const queueItem = (q: Queued) => [q.number, q.id, q.graph, { client_id: q.clientId }, outputNodes(q.graph)]

  function emit(clientId: string | null, type: string, data: unknown) {
    for (const [socket, id] of sockets) if (clientId === null || id === clientId) socket.send(JSON.stringify({ type, data }))
  }
  const broadcastStatus = () => emit(null, 'status', { status: { exec_info: { queue_remaining: pending.length + (running ? 1 : 0) } } })

  async function drain() {
    if (running) return
    while (pending.length > 0) {
      running = pending.shift()!
      broadcastStatus()
      await execute(running)
      running = null
      broadcastStatus()
    }
  }

  async function execute(prompt: Queued) {
    const { id: prompt_id, graph } = prompt
    const messages: [string, Record<string, unknown>][] = []
    const send = (type: string, data: Record<string, unknown>, keep = false) => {
      if (keep) messages.push([type, { ...data, timestamp: Date.now() }])
      emit(prompt.clientId, type, data)
    }
    const nodeOutputs: Record<string, unknown> = {}
    const executed: string[] = []
    let outcome: 'success' | 'execution_error' | 'execution_interrupted' = 'success'
    send('execution_start', { prompt_id }, true)
    send('execution_cached', { nodes: [], prompt_id }, true)
    run: for (const id of executionOrder(graph)) {
      const node = nodeOf(graph, id)
      send('executing', { node: id, display_node: id, prompt_id })
      if (node.class_type === 'KSampler') {
        const steps = Number(node.inputs.steps)
        for (let value = 1; value <= steps; value++) {
          await pause(stepMs())
          const failure = { prompt_id, node_id: id, node_type: node.class_type, executed: [...executed] }
          if (prompt.interrupted) {
            outcome = 'execution_interrupted'
            send(outcome, failure, true)
            break run
          }
          if (options.behaviour === 'execution-error' && value > steps / 2) {
            outcome = 'execution_error'
            const error = {
              exception_message: 'CUDA out of memory. Tried to allocate 1.50 GiB',
              exception_type: 'torch.OutOfMemoryError',
              traceback: [],
              current_inputs: {},
              current_outputs: {},
            }
            send(outcome, { ...failure, ...error }, true)
            break run
          }
          send('progress', { value, max: steps, prompt_id, node: id })
          if (options.behaviour === 'socket-drop' && value === 2) for (const [socket, clientId] of sockets) if (clientId === prompt.clientId) socket.terminate()
        }
      }
      if (node.class_type === 'SaveImage') {
        const seed = Number(Object.values(graph).find((n) => n.class_type === 'KSampler')?.inputs.seed ?? 0)
        const images = []
        for (let i = 0; i < batchSize(graph); i++) {
          const filename = `${String(node.inputs.filename_prefix)}_${String(++fileNumber).padStart(5, '0')}_.png`
          outputs.set(filename, await fakePng(seed + i))
          images.push({ filename, subfolder: '', type: 'output' })
        }
        nodeOutputs[id] = { images }
        send('executed', { node: id, display_node: id, output: { images }, prompt_id })
      }
      if (VIDEO_OUTPUTS.includes(node.class_type)) {
        const filename = `${String(node.inputs.filename_prefix)}_${String(++fileNumber).padStart(5, '0')}_.mp4`
        outputs.set(key('video', filename), await fakeClip())
        const output = { images: [{ filename, subfolder: 'video', type: 'output' }], animated: [true] }
        nodeOutputs[id] = output
        send('executed', { node: id, display_node: id, output, prompt_id })
      }
      executed.push(id)
    }
    if (outcome === 'success') send('execution_success', { prompt_id }, true)
    const status = { status_str: outcome === 'success' ? 'success' : 'error', completed: outcome === 'success', messages }
    history.set(prompt_id, { prompt: queueItem(prompt), outputs: nodeOutputs, status, meta: {} })
    send('executing', { node: null, prompt_id })
  }

  function submit(body: unknown, res: http.ServerResponse, { withoutId = false } = {}) {
    const graph = (body as { prompt?: unknown } | null)?.prompt
    if (typeof graph !== 'object' || graph === null)
      return sendJson(res, 400, { error: { type: 'no_prompt', message: 'No prompt provided', details: 'No prompt provided', extra_info: {} }, node_errors: [] })
    const refusal = validate(graph as Graph, {
      checkpoints: options.behaviour === 'reject' ? [] : options.checkpoints!,
      controlnets: options.controlnets!,
      images: [...inputs.keys()],
      loras: options.loras!,
    })
    if (refusal) return sendJson(res, 400, refusal)
    const { prompt_id, client_id } = body as { prompt_id?: unknown; client_id?: unknown }
    const id = typeof prompt_id === 'string' && !options.ignorePromptId ? prompt_id : randomUUID()
    const number = promptNumber++
    pending.push({ id, number, graph: graph as Graph, clientId: typeof client_id === 'string' ? client_id : null, interrupted: false })
    broadcastStatus()
    void drain()
    sendJson(res, 200, withoutId ? { number, node_errors: {} } : { prompt_id: id, number, node_errors: {} })
  }

  function upload(form: Multipart, res: http.ServerResponse) {
    const file = form.files.image
    if (!file) return sendText(res, 400, '')
    const subfolder = form.fields.subfolder ?? ''
    const overwrite = ['true', '1'].includes(form.fields.overwrite ?? '')
    let name = file.filename
    for (let n = 1; !overwrite && inputs.has(key(subfolder, name)) && !inputs.get(key(subfolder, name))!.equals(file.bytes); n++)
      name = file.filename.replace(/(\.\w+)?$/, ` (${n})$1`)
    inputs.set(key(subfolder, name), file.bytes)
    sendJson(res, 200, { name, subfolder, type: 'input' })
  }

  const fake = await startServer(async (req, res, url, raw) => {
    const multipart = req.headers['content-type']?.startsWith('multipart/form-data')
    const body = multipart ? await parseMultipart(req, raw) : jsonBody(raw)
    record(calls, req, url, body)
    if (!authorised(req)) return sendText(res, 401, '401 Unauthorized', 'text/plain')
    const path = url.pathname.replace(/^\/api(?=\/)/, '')
    const route = `${req.method} ${path}`
    if (route === 'POST /prompt') {
      if (options.behaviour === 'hanging') return
      if (options.behaviour === 'failing') return sendText(res, 500, '500 Internal Server Error\n\nServer got itself in trouble', 'text/plain')
      return submit(body, res, { withoutId: options.behaviour === 'malformed' })
    }
    if (route === 'GET /prompt') return sendJson(res, 200, { exec_info: { queue_remaining: pending.length + (running ? 1 : 0) } })
    if (route === 'POST /upload/image') return upload(body as Multipart, res)
    if (route === 'GET /queue' && blip('queue', req, res)) return
    if (req.method === 'GET' && path.startsWith('/history/') && blip('history', req, res)) return
    if (route === 'GET /view' && blip('view', req, res)) return
    if (route === 'GET /queue') return sendJson(res, 200, { queue_running: running ? [queueItem(running)] : [], queue_pending: pending.map(queueItem) })
    if (route === 'POST /queue') {
      const { delete: ids, clear } = (body ?? {}) as { delete?: string[]; clear?: boolean }
      for (let i = pending.length - 1; i >= 0; i--) if (clear || ids?.includes(at(pending, i).id)) pending.splice(i, 1)
      return sendJson(res, 200, {})
    }
    if (route === 'POST /interrupt') {
      const wanted = (body as { prompt_id?: string } | null)?.prompt_id
      if (running && (wanted === undefined || wanted === running.id)) running.interrupted = true
      return sendJson(res, 200, {})
    }
    if (req.method === 'GET' && path.startsWith('/history/')) {
      const id = decodeURIComponent(path.slice('/history/'.length))
      return sendJson(res, 200, history.has(id) ? { [id]: history.get(id) } : {})
    }
    if (route === 'GET /view') {
      const name = url.searchParams.get('filename') ?? ''
      const store = url.searchParams.get('type') === 'input' ? inputs : outputs
      const bytes = store.get(key(url.searchParams.get('subfolder') ?? '', name))
      if (!bytes) return sendText(res, 404, '', 'text/plain')
      res.writeHead(200, { 'content-type': name.endsWith('.mp4') ? 'video/mp4' : 'image/png', 'content-length': bytes.length })
      return res.end(bytes)
    }
    if (route === 'GET /system_stats') {
      const system = {
        os: 'posix',
        ram_total: 34359738368,
        ram_free: 17179869184,
        comfyui_version: '0.3.40',
        python_version: '3.12.3',
        pytorch_version: '2.7.0+cu128',
        embedded_python: false,
        argv: ['main.py'],
      }
      return sendJson(res, 200, {
        system,
        devices: [
          {
            name: 'cuda:0 NVIDIA GeForce RTX 4090 : cudaMallocAsync',
            type: 'cuda',
            index: 0,
            vram_total: 25757220864,
            vram_free: 24000000000,
            torch_vram_total: 0,
            torch_vram_free: 0,
          },
        ],
      })
    }
    if (route === 'GET /object_info/CheckpointLoaderSimple') {
      const required = { ckpt_name: [options.checkpoints, { tooltip: 'The name of the checkpoint (model) to load.' }] }
      return sendJson(res, 200, {
        CheckpointLoaderSimple: {
          input: { required },
          input_order: { required: ['ckpt_name'] },
          output: ['MODEL', 'CLIP', 'VAE'],
          output_name: ['MODEL', 'CLIP', 'VAE'],
          name: 'CheckpointLoaderSimple',
          category: 'loaders',
          output_node: false,
        },
      })
    }
    if (route === 'GET /object_info/LoraLoader') {
      const required = {
        model: ['MODEL', { tooltip: 'The diffusion model the LoRA will be applied to.' }],
        clip: ['CLIP', { tooltip: 'The CLIP model the LoRA will be applied to.' }],
        lora_name: ['COMBO', { options: options.loras, tooltip: 'The name of the LoRA.' }],
        strength_model: ['FLOAT', { default: 1, min: -100, max: 100, step: 0.01 }],
        strength_clip: ['FLOAT', { default: 1, min: -100, max: 100, step: 0.01 }],
      }
      return sendJson(res, 200, {
        LoraLoader: {
          input: { required },
          input_order: { required: Object.keys(required) },
          output: ['MODEL', 'CLIP'],
          output_name: ['MODEL', 'CLIP'],
          name: 'LoraLoader',
          category: 'loaders',
          output_node: false,
        },
      })
    }
    sendText(res, 404, '404: Not Found', 'text/plain')
  })

  const wss = new WebSocketServer({ noServer: true })
  fake.server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://fake')
    record(calls, req, url, null)
    if (!/^(\/api)?\/ws$/.test(url.pathname) || !authorised(req)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\n\r\n')
      return
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const clientId = url.searchParams.get('clientId') ?? randomUUID().replace(/-/g, '')
      sockets.set(ws, clientId)
      ws.on('close', () => sockets.delete(ws))
      ws.send(JSON.stringify({ type: 'status', data: { status: { exec_info: { queue_remaining: pending.length + (running ? 1 : 0) } }, sid: clientId } }))
    })
  })

  return {
    url: fake.url,
    calls,
    async close() {
      for (const socket of sockets.keys()) socket.terminate()
      wss.close()
      await fake.close()
    },
    /** The next `count` GETs of /history/{id}, /queue or /view fail: the connection is cut, or a 502 page. */
    failNext(route: BlipRoute, count: number, how: 'drop' | 502 = 'drop') {
      blips.set(route, { left: count, how })
    },
    set(patch: Partial<FakeComfyOptions> | ComfyBehaviour) {
      blips.clear()
      options = { ...options, ...(typeof patch === 'string' ? { behaviour: patch } : patch) }
    },
    /** The workflows POSTed to /prompt, oldest first. */
    prompts: () =>
      calls.filter((c) => c.path === '/prompt' && c.method === 'POST').map((c) => c.body as { prompt: Graph; client_id?: string; prompt_id?: string }),
  }
}

const key = (subfolder: string, name: string) => (subfolder ? `${subfolder}/${name}` : name)
