import { isAdmin } from '@/lib/auth/permissions'
import type { Role } from '@/lib/generated/prisma/enums'
import { CONFIG_GROUPS, CONFIG_REGISTRY, type ConfigType, type Visibility } from './registry'
import { maskSecret } from './secret-box'
import { getAllConfigValues, type ConfigValue } from './store'

export type ConfigItem = {
  name: string
  group: string
  label: string
  help: string | null
  type: ConfigType
  visibility: Visibility
  value: ConfigValue
  /** For secrets: whether a value is stored (the value itself is masked). */
  isSet: boolean
}

/**
 * Every setting for the console, grouped in registry order. Secrets are masked for an
 * ADMIN and left out altogether for a MANAGER.
 */
export async function listConfigForConsole(role: Role): Promise<{ groups: readonly string[]; items: ConfigItem[] }> {
  const values = await getAllConfigValues()
  const visible = CONFIG_REGISTRY.filter((def) => def.visibility !== 'secret' || isAdmin(role))
  const items = visible.map((def) => {
    const value = values.get(def.name) ?? def.defaultValue
    const isSecret = def.visibility === 'secret'
    return {
      name: def.name,
      group: def.group,
      label: def.label,
      help: def.help ?? null,
      type: def.type,
      visibility: def.visibility,
      value: isSecret ? maskSecret(String(value)) : value,
      isSet: value !== '' && value !== def.defaultValue,
    }
  })
  return { groups: CONFIG_GROUPS.filter((g) => items.some((i) => i.group === g)), items }
}
