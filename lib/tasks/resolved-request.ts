import type { TaskType } from '@/lib/generated/prisma/enums'
import type { MjSpeed } from '@/lib/mj/compose-prompt'
import type { SdTaskType } from '@/lib/generation/sd-params'
import type { VideoTaskType } from './video-params'

/** What a submission turns into after presets and sources are applied. */
export type ResolvedRequest = {
  type: TaskType
  /** The kind of run it is (MAKE_SAME and 小狸猫 run as text-to-image etc.). */
  baseType: Exclude<SdTaskType, 'MAKE_SAME' | 'SD_XIAOLIMAO'> | 'MJ_TEXT2IMG' | 'MJ_IMG2IMG' | VideoTaskType
  params: Record<string, unknown>
  modelId: string | null
  /** A 小狸猫 preset: its price, and the checkpoint and LoRA kept with the task (an edit of the preset later does not change a queued task). */
  customModel: { id: number; price: number; checkpoint: string | null; lora: string | null } | null
  parentId: string | null
  /** The key of the model's price table to charge (the base type unless said otherwise: Midjourney prices per action). */
  priceKey?: string
  /** Midjourney: imagine, blend, describe, or the customId of the button pressed. */
  action?: string
  /**
   * Refused with this message (409) while another task of the same parent and action is
   * pending or succeeded: checked again under the user's lock, so two presses at once
   * charge once.
   */
  onceMessage?: string
  /** Runs on `modelId` itself, never on another instance of its pool (a proxy knows only its own task ids). */
  isPinnedToModel?: boolean
  /**
   * Paid work the request still needs (a Midjourney prompt's translation): run only once the
   * user could be charged for it, it answers the params to queue.
   */
  translate?: () => Promise<Record<string, unknown>>
  /** Midjourney: the speed asked for (in the form, the prompt or the parameters); only a model that offers it runs the task. */
  mjSpeed?: MjSpeed
  /** Video: the clip asked for (priced per clip and per second; the model must offer its length, ratio and resolution). */
  video?: { durationSec: number; ratio: string; resolution: string; hasFirstFrame: boolean; hasLastFrame: boolean }
}
