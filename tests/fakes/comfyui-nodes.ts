// The core nodes the fake ComfyUI knows, validated the way ComfyUI's validate_prompt does.
export type Graph = Record<string, { class_type: string; inputs: Record<string, unknown> }>

/** What validation checks combo inputs against: the server's files and models. */
export type KnownNames = { checkpoints: string[]; controlnets: string[]; images: string[]; loras: string[] }

type InputKind = 'INT' | 'FLOAT' | 'STRING' | 'LINK' | 'checkpoints' | 'controlnets' | 'images' | 'loras' | string[]

const SAMPLERS = ['euler', 'euler_ancestral', 'heun', 'dpm_2', 'lms', 'dpmpp_2m', 'dpmpp_sde', 'dpmpp_2m_sde', 'ddim', 'uni_pc']
const SCHEDULERS = ['normal', 'karras', 'exponential', 'sgm_uniform', 'simple', 'ddim_uniform', 'beta']
const NODES: Record<string, Record<string, InputKind>> = {
  CheckpointLoaderSimple: { ckpt_name: 'checkpoints' },
  LoraLoader: { model: 'LINK', clip: 'LINK', lora_name: 'loras', strength_model: 'FLOAT', strength_clip: 'FLOAT' },
  CLIPTextEncode: { text: 'STRING', clip: 'LINK' },
  EmptyLatentImage: { width: 'INT', height: 'INT', batch_size: 'INT' },
  KSampler: {
    seed: 'INT',
    steps: 'INT',
    cfg: 'FLOAT',
    sampler_name: SAMPLERS,
    scheduler: SCHEDULERS,
    denoise: 'FLOAT',
    model: 'LINK',
    positive: 'LINK',
    negative: 'LINK',
    latent_image: 'LINK',
  },
  VAEDecode: { samples: 'LINK', vae: 'LINK' },
  VAEEncode: { pixels: 'LINK', vae: 'LINK' },
  VAEEncodeForInpaint: { pixels: 'LINK', vae: 'LINK', mask: 'LINK', grow_mask_by: 'INT' },
  RepeatLatentBatch: { samples: 'LINK', amount: 'INT' },
  ImageScale: {
    image: 'LINK',
    upscale_method: ['nearest-exact', 'bilinear', 'area', 'bicubic', 'lanczos'],
    width: 'INT',
    height: 'INT',
    crop: ['disabled', 'center'],
  },
  LoadImage: { image: 'images' },
  LoadImageMask: { image: 'images', channel: ['alpha', 'red', 'green', 'blue'] },
  ImageInvert: { image: 'LINK' },
  ControlNetLoader: { control_net_name: 'controlnets' },
  ControlNetApplyAdvanced: {
    positive: 'LINK',
    negative: 'LINK',
    control_net: 'LINK',
    image: 'LINK',
    strength: 'FLOAT',
    start_percent: 'FLOAT',
    end_percent: 'FLOAT',
  },
  SaveImage: { images: 'LINK', filename_prefix: 'STRING' },
  PreviewImage: { images: 'LINK' },
  // Video (the Wan 2.2 image-to-video template of ComfyUI's core nodes).
  UNETLoader: { unet_name: 'STRING', weight_dtype: ['default', 'fp8_e4m3fn', 'fp8_e5m2'] },
  CLIPLoader: { clip_name: 'STRING', type: ['stable_diffusion', 'wan', 'sd3', 'flux'] },
  VAELoader: { vae_name: 'STRING' },
  WanImageToVideo: { positive: 'LINK', negative: 'LINK', vae: 'LINK', width: 'INT', height: 'INT', length: 'INT', batch_size: 'INT' },
  CreateVideo: { images: 'LINK', fps: 'FLOAT' },
  SaveVideo: { video: 'LINK', filename_prefix: 'STRING', format: ['auto', 'mp4'], codec: ['auto', 'h264'] },
}

/** Nodes whose output is a clip (SaveVideo writes MP4 and reports it under `images` with `animated`). */
export const VIDEO_OUTPUTS = ['SaveVideo']

export const outputNodes = (graph: Graph) =>
  Object.entries(graph)
    .filter(([, node]) => ['SaveImage', 'PreviewImage', ...VIDEO_OUTPUTS].includes(node.class_type))
    .map(([id]) => id)

/** Node `id`, which the graph must have (after validate(), every linked node is there). */
export function nodeOf<Node>(graph: Record<string, Node>, id: string): Node {
  const node = graph[id]
  if (!node) throw new Error(`node ${id} is not in the graph`)
  return node
}

export function batchSize(graph: Graph): number {
  const sizes = Object.values(graph).map((n) =>
    Number(n.class_type === 'RepeatLatentBatch' ? n.inputs.amount : n.class_type === 'EmptyLatentImage' ? n.inputs.batch_size : 1),
  )
  return Math.max(1, ...sizes)
}

/** Every node after the nodes it links to. */
export function executionOrder(graph: Graph): string[] {
  const order: string[] = []
  const visit = (id: string) => {
    if (order.includes(id)) return
    for (const value of Object.values(nodeOf(graph, id).inputs)) if (Array.isArray(value)) visit(String(value[0]))
    order.push(id)
  }
  outputNodes(graph).forEach(visit)
  return order
}

/** ComfyUI's validate_prompt: unknown classes, then per-node input errors (400 with node_errors). */
export function validate(graph: Graph, known: KnownNames): unknown {
  for (const [id, node] of Object.entries(graph)) {
    if (!NODES[node?.class_type])
      return {
        error: {
          type: 'invalid_prompt',
          message: `Cannot execute because node ${String(node?.class_type)} does not exist.`,
          details: `Node ID '#${id}'`,
          extra_info: {},
        },
        node_errors: {},
      }
  }
  const outputs = outputNodes(graph)
  if (outputs.length === 0) return { error: { type: 'prompt_no_outputs', message: 'Prompt has no outputs', details: '', extra_info: {} }, node_errors: [] }
  const nodeErrors: Record<string, unknown> = {}
  for (const [id, node] of Object.entries(graph)) {
    const errors: Record<string, unknown>[] = []
    // Every class is known here: the loop above refused the others.
    for (const [name, kind] of Object.entries(NODES[node.class_type] ?? {})) {
      const value = node.inputs?.[name]
      const fail = (type: string, message: string, details: string) => errors.push({ type, message, details, extra_info: { input_name: name } })
      const list = Array.isArray(kind) ? kind : kind === 'checkpoints' || kind === 'controlnets' || kind === 'images' || kind === 'loras' ? known[kind] : null
      if (value === undefined) fail('required_input_missing', 'Required input is missing', name)
      else if (kind === 'LINK') {
        if (!Array.isArray(value) || value.length !== 2 || !graph[String(value[0])])
          fail('bad_linked_input', 'Bad linked input, must be a length-2 list of [node_id, slot_index]', `${name}, ${JSON.stringify(value)}`)
      } else if ((kind === 'INT' || kind === 'FLOAT') && (typeof value === 'object' || !Number.isFinite(Number(value)))) {
        fail('invalid_input_type', `Failed to convert an input value to a ${kind} value`, `${name}, ${String(value)}`)
      } else if (kind === 'STRING' && typeof value !== 'string')
        fail('invalid_input_type', 'Failed to convert an input value to a STRING value', `${name}, ${String(value)}`)
      else if (list && !list.includes(String(value)))
        fail('value_not_in_list', 'Value not in list', `${name}: '${String(value)}' not in ${JSON.stringify(list)}`)
    }
    if (errors.length > 0) nodeErrors[id] = { errors, dependent_outputs: outputs, class_type: node.class_type }
  }
  if (Object.keys(nodeErrors).length === 0) return null
  return {
    error: { type: 'prompt_outputs_failed_validation', message: 'Prompt outputs failed validation', details: '', extra_info: {} },
    node_errors: nodeErrors,
  }
}
