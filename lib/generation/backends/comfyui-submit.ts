import { randomInt } from 'node:crypto'
import { clientIdOf, loraFile, rejection, upload, type ComfyConnection } from './comfyui-api'
import { DEFAULT_WORKFLOWS, fillWorkflow, withLoraLoader, type Workflow, type WorkflowValues } from './comfyui-workflows'
import { isRecord, send, statusError } from './http'
import { BackendError, UnreadAcceptanceError, type GenerationJob, type RunContext, type SubmitOutcome, type VideoJob } from './types'
import { ratioOfFrame, sizeFor } from './video-follow'
import { VIDEO_RATIOS } from '../clip-ratios'

/** Uploads the inputs and queues the filled workflow under our task id (prompt_id), with a LoRA when the preset has one. */
export async function submitComfyJob(comfy: ComfyConnection, job: GenerationJob, ctx: RunContext): Promise<SubmitOutcome> {
  if (job.video) return submitComfyVideo(comfy, job, job.video, ctx)
  const configured = comfy.workflows[job.mode] ?? DEFAULT_WORKFLOWS[job.mode]
  if (!isRecord(configured)) throw new BackendError('REJECTED', `ComfyUI 的 ${job.mode} 工作流模板不是对象`, false)
  let template = configured as Workflow
  // A template with its own {{lora_name}} places the LoRA itself; others get a LoraLoader.
  const ownLora = JSON.stringify(template).includes('"{{lora_name}}"')
  const lora = job.lora ? { file: await loraFile(comfy, job.lora.name, ctx.signal), strength: job.lora.weight } : null
  if (lora && !ownLora) {
    try {
      template = withLoraLoader(template, lora.file, lora.strength)
    } catch (err) {
      throw new BackendError('REJECTED', `ComfyUI 工作流模板无法加入 LoRA：${(err as Error).message}`, false)
    }
  }
  const name = job.taskId.replace(/[^\w-]/g, '_')
  const values: WorkflowValues = {
    task_id: name,
    prompt: job.prompt,
    negative_prompt: job.negativePrompt,
    seed: job.seed >= 0 ? job.seed : randomInt(0, 2 ** 32),
    width: job.width,
    height: job.height,
    steps: job.steps,
    cfg: job.cfgScale,
    sampler: job.sampler ?? 'euler',
    batch_size: job.count,
    denoise: job.denoisingStrength ?? (job.mode === 'img2img' ? 0.75 : 1),
    checkpoint: job.checkpoint ?? comfy.checkpoint ?? undefined,
    controlnet_model: job.controlnet?.model,
    controlnet_strength: job.controlnet?.weight,
    lora_name: lora?.file,
    lora_strength: lora?.strength,
  }
  if (job.mode === 'img2img' || job.mode === 'inpaint') values.init_image = await upload(comfy, job.initImage, `${name}-init.png`, '输入图片', ctx.signal)
  if (job.mode === 'inpaint') values.mask_image = await upload(comfy, job.maskImage, `${name}-mask.png`, '蒙版', ctx.signal)
  if (job.mode === 'lineart') values.control_image = await upload(comfy, job.controlImage, `${name}-lineart.png`, '线稿图片', ctx.signal)
  return queuePrompt(comfy, job, template, values, ctx)
}

/**
 * A clip from the model's `workflows.video` template (there is no default: video models'
 * files differ per install). It fills {{prompt}}, {{negative_prompt}}, {{seed}}, {{width}},
 * {{height}}, {{length}} (frames: seconds × {{fps}} + 1), {{fps}}, {{duration}}, and the
 * uploaded {{first_image}} / {{last_image}}.
 */
async function submitComfyVideo(comfy: ComfyConnection, job: GenerationJob, video: VideoJob, ctx: RunContext): Promise<SubmitOutcome> {
  const template = comfy.workflows.video
  if (!isRecord(template)) throw new BackendError('REJECTED', 'ComfyUI 视频模型需要在选项 workflows.video 中配置视频工作流（API 格式）', false)
  const name = job.taskId.replace(/[^\w-]/g, '_')
  // From a first frame the clip follows the frame's shape, not the ratio the form would have offered.
  const ratio = video.firstFrame ? ((await ratioOfFrame(video.firstFrame, VIDEO_RATIOS)) ?? video.ratio) : video.ratio
  const { width, height } = sizeFor({ ratio, resolution: video.resolution })
  const values: WorkflowValues = {
    task_id: name,
    prompt: job.prompt,
    negative_prompt: job.negativePrompt,
    seed: job.seed >= 0 ? job.seed : randomInt(0, 2 ** 32),
    width,
    height,
    fps: comfy.videoFps,
    length: video.durationSec * comfy.videoFps + 1,
    duration: video.durationSec,
  }
  if (video.firstFrame) values.first_image = await upload(comfy, video.firstFrame, `${name}-first.png`, '首帧图片', ctx.signal)
  if (video.lastFrame) values.last_image = await upload(comfy, video.lastFrame, `${name}-last.png`, '尾帧图片', ctx.signal)
  return queuePrompt(comfy, job, template as Workflow, values, ctx)
}

/** Fills the template and queues it under our task id (prompt_id). */
async function queuePrompt(comfy: ComfyConnection, job: GenerationJob, template: Workflow, values: WorkflowValues, ctx: RunContext): Promise<SubmitOutcome> {
  let prompt: unknown
  try {
    prompt = fillWorkflow(template, values)
  } catch (err) {
    throw new BackendError('REJECTED', `ComfyUI 工作流模板不适用于这个任务：${(err as Error).message}`, false)
  }
  const reply = await send(`${comfy.base}/prompt`, {
    json: { prompt, client_id: clientIdOf(job), prompt_id: job.taskId },
    headers: comfy.headers,
    signal: ctx.signal,
    timeoutMs: 60_000,
  })
  if (reply.status === 400) throw rejection(reply)
  if (reply.status < 200 || reply.status >= 300) throw statusError(reply)
  let answer: unknown = null
  try {
    answer = JSON.parse(reply.bytes.toString('utf8'))
  } catch {
    // read as an answer without prompt_id
  }
  if (!isRecord(answer) || typeof answer.prompt_id !== 'string') throw new UnreadAcceptanceError('ComfyUI 接受任务的应答里没有 prompt_id', reply.status)
  return { kind: 'accepted', upstreamId: answer.prompt_id, log: { promptId: answer.prompt_id, number: answer.number, seed: values.seed } }
}
