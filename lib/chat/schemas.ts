import { serviceAddress, z } from '@/lib/zod'

/** Shared by the console form and the API: what an operator types for a chat model. */
const endpoint = z.string().trim().min(1, '请填写接口地址').pipe(serviceAddress)

const fields = {
  name: z.string().trim().min(1, '请填写名称').max(40, '名称最多 40 个字'),
  endpoint,
  /** Write-only: absent keeps the stored key, '' removes it. */
  secret: z.string().trim().max(500),
  model: z.string().trim().min(1, '请填写模型名称').max(100),
  systemPrompt: z.string().max(4000, '系统提示词最多 4000 个字'),
  contextMessages: z.number().int('上下文条数必须是整数').min(0).max(100, '上下文最多 100 条'),
  pricePerMessage: z.number().int('价格必须是整数').min(0, '价格不能为负数').max(1_000_000),
  vision: z.boolean(),
  enabled: z.boolean(),
  sort: z.number().int().min(-10000).max(10000),
}

export const ZChatModelInputSchema = z
  .object({
    ...fields,
    secret: fields.secret.optional(),
    systemPrompt: fields.systemPrompt.default(''),
    contextMessages: fields.contextMessages.default(10),
    vision: fields.vision.default(false),
    enabled: fields.enabled.default(true),
    sort: fields.sort.default(0),
  })
  .strict()
export type TChatModelInput = z.infer<typeof ZChatModelInputSchema>

export const ZChatModelUpdateSchema = z.object(fields).partial().strict()
export type TChatModelUpdate = z.infer<typeof ZChatModelUpdateSchema>

export const ZConversationCreateSchema = z.object({ modelId: z.string().min(1, '请选择模型').max(64), title: z.string().trim().max(60).optional() }).strict()
export type TConversationCreate = z.infer<typeof ZConversationCreateSchema>

export const ZConversationUpdateSchema = z
  .object({ modelId: z.string().min(1).max(64), title: z.string().trim().min(1, '标题不能为空').max(60, '标题最多 60 个字') })
  .partial()
  .strict()
export type TConversationUpdate = z.infer<typeof ZConversationUpdateSchema>

export const ZConversationListQuerySchema = z.object({ q: z.string().trim().max(60).optional() })

export const MAX_CHAT_IMAGES = 4
export const MAX_MESSAGE_LENGTH = 8000

export const ZSendMessageSchema = z
  .object({
    content: z.string().trim().min(1, '请输入消息').max(MAX_MESSAGE_LENGTH, `消息最多 ${MAX_MESSAGE_LENGTH} 个字`),
    /** Ids of the caller's uploads (POST /api/uploads). */
    images: z.array(z.string().min(1).max(64)).max(MAX_CHAT_IMAGES, `最多附带 ${MAX_CHAT_IMAGES} 张图片`).optional(),
    /** Regenerate or edit-and-resend: this user message and everything after it are replaced. */
    replaceFrom: z.string().min(1).max(64).optional(),
  })
  .strict()
export type TSendMessage = z.infer<typeof ZSendMessageSchema>

/** Views the browser gets (shared types). */
export type ChatModelView = { id: string; name: string; pricePerMessage: number; vision: boolean }
export type ConversationView = { id: string; title: string; modelId: string; createdAt: string; updatedAt: string }
export type ChatMessageView = {
  id: string
  role: 'USER' | 'ASSISTANT'
  content: string
  images: string[]
  incomplete: boolean
  points: number
  createdAt: string
}
export type AdminChatModelRow = {
  id: string
  name: string
  endpoint: string
  secret: string
  model: string
  systemPrompt: string
  contextMessages: number
  pricePerMessage: number
  vision: boolean
  enabled: boolean
  sort: number
  createdAt: string
  updatedAt: string
}
export type ChatUsageRow = { name: string; messages: number; points: number }
