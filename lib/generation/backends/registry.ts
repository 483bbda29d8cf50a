import { createArkVideoAdapter } from './ark-video'
import { createComfyuiAdapter } from './comfyui'
import { createDashscopeVideoAdapter } from './dashscope-video'
import { createDemoAdapter } from './demo'
import { createMjProxyAdapter } from './mj-proxy'
import { createOpenaiImagesAdapter } from './openai-images'
import { createOpenaiVideoAdapter } from './openai-video'
import { createSdWebuiAdapter } from './sd-webui'
import type { AdapterFactory, BackendAdapter, BackendConfig, BackendKind } from './types'

/** Adapter factories by backend kind. */
const factories: Partial<Record<BackendKind, AdapterFactory>> = {
  'sd-webui': createSdWebuiAdapter,
  comfyui: createComfyuiAdapter,
  'openai-images': createOpenaiImagesAdapter,
  'mj-proxy': createMjProxyAdapter,
  demo: createDemoAdapter,
  'ark-video': createArkVideoAdapter,
  'dashscope-video': createDashscopeVideoAdapter,
  'openai-video': createOpenaiVideoAdapter,
}

export function createAdapter(kind: string, config: BackendConfig): BackendAdapter {
  const factory = factories[kind as BackendKind]
  if (!factory) throw new Error(`No adapter for backend kind "${kind}"`)
  return factory(config)
}

export function isSupportedBackend(kind: string): kind is BackendKind {
  return kind in factories
}
