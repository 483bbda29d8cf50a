import type { BackendConfig } from '@/lib/generation/backends/types'
import { openModelSecret } from './model-secret'

/** The columns of an AiModel row that make its adapter's configuration. */
export type ModelConnection = { backend: string; endpoint: string; secretEnc: string | null; checkpoint: string | null; options: unknown }

/** What an adapter needs to reach this model's backend (the secret opened). */
export function backendConfig(model: ModelConnection): BackendConfig {
  return {
    endpoint: model.endpoint,
    secret: model.secretEnc ? openModelSecret(model.secretEnc) : null,
    checkpoint: model.checkpoint,
    options: (model.options ?? {}) as Record<string, unknown>,
  }
}
