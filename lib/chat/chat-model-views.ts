import 'server-only'
import type { Prisma } from '@/lib/generated/prisma/client'
import { maskSecret } from '@/lib/site-config/secret-box'
import { openChatSecret } from './chat-secret'
import type { AdminChatModelRow } from './schemas'

export const CHAT_MODEL_SELECT = {
  id: true,
  name: true,
  endpoint: true,
  secretEnc: true,
  model: true,
  systemPrompt: true,
  contextMessages: true,
  pricePerMessage: true,
  vision: true,
  enabled: true,
  sort: true,
  createdAt: true,
  updatedAt: true,
} as const
export type ChatModelRecord = Prisma.ChatModelGetPayload<{ select: typeof CHAT_MODEL_SELECT }>

/** A chat model for the console: the key only ever masked. */
export function toAdminChatModelRow(m: ChatModelRecord): AdminChatModelRow {
  const { secretEnc, createdAt, updatedAt, ...rest } = m
  return {
    ...rest,
    secret: secretEnc ? maskSecret(openChatSecret(secretEnc) ?? '') || '••••••' : '',
    createdAt: createdAt.toISOString(),
    updatedAt: updatedAt.toISOString(),
  }
}

/** What the audit keeps of a chat model: never the key, only whether there is one. */
export const auditedChatModel = (m: ChatModelRecord, secretReplaced = false) =>
  ({
    name: m.name,
    endpoint: m.endpoint,
    model: m.model,
    contextMessages: m.contextMessages,
    pricePerMessage: m.pricePerMessage,
    vision: m.vision,
    enabled: m.enabled,
    hasSecret: Boolean(m.secretEnc),
    ...(secretReplaced && { secretReplaced }),
  }) as Prisma.InputJsonValue
