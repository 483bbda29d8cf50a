import { z } from '@/lib/zod'

export const TASK_TYPE_VALUES = [
  'SD_TEXT2IMG',
  'SD_IMG2IMG',
  'SD_IMGINPAINT',
  'SD_IMGCONTROLNET',
  'MJ_TEXT2IMG',
  'MJ_IMG2IMG',
  'MAKE_SAME',
  'SD_XIAOLIMAO',
  'VIDEO_TEXT2VIDEO',
  'VIDEO_IMG2VIDEO',
] as const
export const ZTaskTypeSchema = z.enum(TASK_TYPE_VALUES)
export const ZStatusSchema = z.enum(['SUCCESS', 'FAIL', 'PENDING', 'CANCELED'])

export const ZSubmitTaskSchema = z
  .object({ type: ZTaskTypeSchema, modelId: z.string().min(1).max(64).optional(), params: z.record(z.string(), z.unknown()) })
  .strict()

/** Stripe-style: up to 255 visible characters, chosen by the client per form submission. */
export const ZIdempotencyKeySchema = z
  .string()
  .regex(/^[\x21-\x7e]{1,255}$/, 'Idempotency-Key 需为 1-255 个可见字符')
  .optional()
