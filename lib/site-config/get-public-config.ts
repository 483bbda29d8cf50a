import { CONFIG_REGISTRY, type PublicConfig } from './registry'
import { getAllConfigValues } from './store'

/** The settings every browser may see (SPEC: data.config of /api/site-config/site-info). */
export async function getPublicConfig(): Promise<PublicConfig> {
  const values = await getAllConfigValues()
  const config: Record<string, unknown> = {}
  for (const def of CONFIG_REGISTRY) if (def.visibility === 'public') config[def.name] = values.get(def.name)
  return config as PublicConfig
}
