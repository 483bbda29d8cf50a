import { randomInt } from 'node:crypto'
import { clientIdOf, loraFile, rejection, upload, type ComfyConnection } from './comfyui-api'
import { DEFAULT_WORKFLOWS, fillWorkflow, withLoraLoader, type Workflow, type WorkflowValues } from './comfyui-workflows'
import { isRecord, okJson, send } from './http'
import { BackendError, type GenerationJob, type RunContext, type SubmitOutcome } from './types'

/** Uploads the inputs and queues the filled workflow under our task id (prompt_id), with a LoRA when the preset has one. */
export async function submitComfyJob(comfy: ComfyConnection, job: GenerationJob, ctx: RunContext): Promise<SubmitOutcome> {
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
  const answer = okJson(reply)
  if (!isRecord(answer) || typeof answer.prompt_id !== 'string') throw new BackendError('BAD_RESPONSE', 'ComfyUI 接受任务的应答里没有 prompt_id', true)
  return { kind: 'accepted', upstreamId: answer.prompt_id, log: { promptId: answer.prompt_id, number: answer.number, seed: values.seed } }
}
