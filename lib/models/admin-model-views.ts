import 'server-only'
import type { Prisma } from '@/lib/generated/prisma/client'
import { maskSecret } from '@/lib/site-config/secret-box'
import type { ModelLoad } from './model-load'
import { openModelSecret } from './model-secret'

export const MODEL_SELECT = {
  id: true,
  name: true,
  type: true,
  backend: true,
  endpoint: true,
  secretEnc: true,
  checkpoint: true,
  prices: true,
  options: true,
  concurrency: true,
  pool: true,
  enabled: true,
  sort: true,
  healthy: true,
  healthCheckedAt: true,
  healthMessage: true,
  createdAt: true,
  updatedAt: true,
} as const
export type ModelRecord = Prisma.AiModelGetPayload<{ select: typeof MODEL_SELECT }>

/** A model for the console: the secret only ever masked; its queues and the last hour's failures. */
export type AdminModelRow = Omit<ModelRecord, 'secretEnc'> & { secret: string } & ModelLoad

/** Generic over the row: the list reads its timestamps as ISO text (lib/db/read-rows.ts), the writes as Dates. */
export function toAdminModelRow<M extends { secretEnc: string | null }>(m: M, load: ModelLoad): Omit<M, 'secretEnc'> & { secret: string } & ModelLoad {
  const { secretEnc, ...rest } = m
  return { ...rest, secret: secretEnc ? maskSecret(openModelSecret(secretEnc) ?? '') || '••••••' : '', ...load }
}

/** What the audit keeps of a model: never the key, only whether there is one and, on an update, whether a new one was typed. */
export const auditedModel = (m: ModelRecord, secretReplaced = false) =>
  ({
    name: m.name,
    backend: m.backend,
    endpoint: m.endpoint,
    checkpoint: m.checkpoint,
    prices: m.prices,
    concurrency: m.concurrency,
    enabled: m.enabled,
    hasSecret: Boolean(m.secretEnc),
    ...(secretReplaced && { secretReplaced }),
  }) as Prisma.InputJsonValue
