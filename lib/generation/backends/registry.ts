import { createDemoAdapter } from './demo'
import type { AdapterFactory, BackendAdapter, BackendConfig, BackendKind } from './types'

/** Adapter factories by backend kind. */
const factories: Partial<Record<BackendKind, AdapterFactory>> = {
  demo: createDemoAdapter,
}

export function createAdapter(kind: string, config: BackendConfig): BackendAdapter {
  const factory = factories[kind as BackendKind]
  if (!factory) throw new Error(`No adapter for backend kind "${kind}"`)
  return factory(config)
}

export function isSupportedBackend(kind: string): kind is BackendKind {
  return kind in factories
}
