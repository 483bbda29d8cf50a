import 'server-only'
import { db, type Tx } from '@/lib/db'
import { CONFIG_REGISTRY, findDefinition, type ConfigDefinition } from './registry'
import { openSecret } from './secret-box'

export type ConfigValue = string | number | boolean

/**
 * Reads all settings at once and keeps them for a few seconds: every page and many
 * requests need them, and they change rarely. A write in this process clears the copy;
 * other processes see a change within CACHE_MS. The copy lives on globalThis because
 * Next.js bundles pages and route handlers separately, each with its own module state.
 */
const CACHE_MS = 5000
const shared = globalThis as unknown as { aiimgConfigCache?: { at: number; values: Map<string, ConfigValue> }; aiimgConfigGeneration?: number }

export function invalidateConfigCache(): void {
  shared.aiimgConfigCache = undefined
  shared.aiimgConfigGeneration = (shared.aiimgConfigGeneration ?? 0) + 1
}

async function loadAll(): Promise<Map<string, ConfigValue>> {
  const cached = shared.aiimgConfigCache
  if (cached && Date.now() - cached.at < CACHE_MS) return cached.values
  const generation = shared.aiimgConfigGeneration
  const values = decodeAll(await db().siteConfig.findMany())
  // A read that began before a write here was cleared by it: its values are not kept (the next read loads again).
  if (generation === shared.aiimgConfigGeneration) shared.aiimgConfigCache = { at: Date.now(), values }
  return values
}

/** Every setting as stored now, read in `tx` rather than from the kept copy: for a write that checks the others. */
export async function readConfigValues(tx: Tx): Promise<Map<string, ConfigValue>> {
  return decodeAll(await tx.siteConfig.findMany())
}

function decodeAll(rows: { name: string; value: string }[]): Map<string, ConfigValue> {
  const stored = new Map(rows.map((r) => [r.name, r.value]))
  const values = new Map<string, ConfigValue>()
  for (const def of CONFIG_REGISTRY) values.set(def.name, decodeStored(def, stored.get(def.name)))
  return values
}

function decodeStored(def: ConfigDefinition, raw: string | undefined): ConfigValue {
  if (raw === undefined) return def.defaultValue
  const json = def.visibility === 'secret' ? openSecret(raw) : raw
  if (json === null) return def.defaultValue
  try {
    const parsed = def.schema.safeParse(JSON.parse(json))
    return parsed.success ? (parsed.data as ConfigValue) : def.defaultValue
  } catch {
    return def.defaultValue
  }
}

/** The current value of one setting (its default when never set). */
export async function getConfigValue<T extends ConfigValue>(name: string): Promise<T> {
  if (!findDefinition(name)) throw new Error(`Unknown site config name: ${name}`)
  return (await loadAll()).get(name) as T
}

export async function getAllConfigValues(): Promise<Map<string, ConfigValue>> {
  return loadAll()
}
