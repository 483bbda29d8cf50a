import type { JobMode } from './types'

/**
 * ComfyUI workflows in API format (docs/PROTOCOLS.md §3.2). A template marks what a job fills
 * in with whole-string placeholders such as "{{seed}}"; fillWorkflow puts typed values
 * there, so numbers stay numbers.
 */
export type WorkflowNode = { class_type: string; inputs: Record<string, unknown>; _meta?: unknown }
export type Workflow = Record<string, WorkflowNode>
export type WorkflowValues = Record<string, string | number | undefined>

const PLACEHOLDER = /^\{\{(\w+)\}\}$/

/** A copy of the template with every placeholder replaced; throws on one without a value. */
export function fillWorkflow<T>(template: T, values: WorkflowValues): T {
  return fill(template, values) as T
}

function fill(value: unknown, values: WorkflowValues): unknown {
  if (typeof value === 'string') {
    const name = PLACEHOLDER.exec(value)?.[1]
    if (name === undefined) return value
    const replacement = values[name]
    if (replacement === undefined) throw new Error(`占位符 {{${name}}} 在这个任务里没有值`)
    return replacement
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, values))
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, values)]))
  return value
}

type Link = [string, number]

// Nodes shared by every default workflow: "1" loads the checkpoint, "2"/"3" encode the
// prompts, "7" samples (added per mode), "8" decodes and "9" saves.
const common: Workflow = {
  '1': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: '{{checkpoint}}' } },
  '2': { class_type: 'CLIPTextEncode', inputs: { text: '{{prompt}}', clip: ['1', 1] } },
  '3': { class_type: 'CLIPTextEncode', inputs: { text: '{{negative_prompt}}', clip: ['1', 1] } },
  '8': { class_type: 'VAEDecode', inputs: { samples: ['7', 0], vae: ['1', 2] } },
  '9': { class_type: 'SaveImage', inputs: { filename_prefix: '{{task_id}}', images: ['8', 0] } },
}

function sampler(latent: Link, denoise: number | string, positive: Link = ['2', 0], negative: Link = ['3', 0]): Workflow {
  return {
    '7': {
      class_type: 'KSampler',
      inputs: {
        seed: '{{seed}}',
        steps: '{{steps}}',
        cfg: '{{cfg}}',
        sampler_name: '{{sampler}}',
        scheduler: 'normal',
        denoise,
        model: ['1', 0],
        positive,
        negative,
        latent_image: latent,
      },
    },
  }
}

const emptyLatent: WorkflowNode = { class_type: 'EmptyLatentImage', inputs: { width: '{{width}}', height: '{{height}}', batch_size: '{{batch_size}}' } }
const loadInit: WorkflowNode = { class_type: 'LoadImage', inputs: { image: '{{init_image}}' } }
const scaleInit: WorkflowNode = {
  class_type: 'ImageScale',
  inputs: { image: ['4', 0], upscale_method: 'lanczos', width: '{{width}}', height: '{{height}}', crop: 'center' },
}
const repeat = (samples: Link): WorkflowNode => ({ class_type: 'RepeatLatentBatch', inputs: { samples, amount: '{{batch_size}}' } })

export const DEFAULT_WORKFLOWS: Record<JobMode, Workflow> = {
  txt2img: { ...common, '4': emptyLatent, ...sampler(['4', 0], 1) },
  img2img: {
    ...common,
    '4': loadInit,
    '5': scaleInit,
    '6': { class_type: 'VAEEncode', inputs: { pixels: ['5', 0], vae: ['1', 2] } },
    '10': repeat(['6', 0]),
    ...sampler(['10', 0], '{{denoise}}'),
  },
  // VAEEncodeForInpaint greys out the masked area, so it samples at full denoise.
  inpaint: {
    ...common,
    '4': loadInit,
    '5': scaleInit,
    '6': { class_type: 'VAEEncodeForInpaint', inputs: { pixels: ['5', 0], vae: ['1', 2], mask: ['11', 0], grow_mask_by: 6 } },
    '10': repeat(['6', 0]),
    '11': { class_type: 'LoadImageMask', inputs: { image: '{{mask_image}}', channel: 'red' } },
    ...sampler(['10', 0], 1),
  },
  // Line-art ControlNets expect white lines on black: the user's drawing is inverted.
  lineart: {
    ...common,
    '4': emptyLatent,
    '5': { class_type: 'LoadImage', inputs: { image: '{{control_image}}' } },
    '6': { class_type: 'ImageInvert', inputs: { image: ['5', 0] } },
    '10': { class_type: 'ControlNetLoader', inputs: { control_net_name: '{{controlnet_model}}' } },
    '11': {
      class_type: 'ControlNetApplyAdvanced',
      inputs: {
        positive: ['2', 0],
        negative: ['3', 0],
        control_net: ['10', 0],
        image: ['6', 0],
        strength: '{{controlnet_strength}}',
        start_percent: 0,
        end_percent: 1,
      },
    },
    ...sampler(['4', 0], 1, ['11', 0], ['11', 1]),
  },
}

/**
 * The workflow with a LoraLoader between its one CheckpointLoaderSimple and everything
 * that used the checkpoint's MODEL (output 0) and CLIP (output 1); the VAE stays as it was.
 * Throws when there is not exactly one checkpoint loader to hang the LoRA on.
 */
export function withLoraLoader(workflow: Workflow, loraName: string, strength: number): Workflow {
  const loaders = Object.entries(workflow)
    .filter(([, node]) => node.class_type === 'CheckpointLoaderSimple')
    .map(([id]) => id)
  if (loaders.length !== 1) throw new Error(`需要正好一个 CheckpointLoaderSimple 节点来接 LoRA，模板里有 ${loaders.length} 个`)
  const [checkpoint] = loaders
  const lora = String(Math.max(0, ...Object.keys(workflow).map(Number).filter(Number.isInteger)) + 1)
  const rewire = (value: unknown): unknown =>
    Array.isArray(value) && value.length === 2 && String(value[0]) === checkpoint && (value[1] === 0 || value[1] === 1) ? [lora, value[1]] : value
  const patched: Workflow = {}
  for (const [id, node] of Object.entries(workflow)) {
    patched[id] = { ...node, inputs: Object.fromEntries(Object.entries(node.inputs).map(([name, value]) => [name, rewire(value)])) }
  }
  patched[lora] = {
    class_type: 'LoraLoader',
    inputs: { model: [checkpoint, 0], clip: [checkpoint, 1], lora_name: loraName, strength_model: strength, strength_clip: strength },
  }
  return patched
}
