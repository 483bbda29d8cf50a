import type { ModelInput } from '@/lib/api-client/resources/admin-models'
import type { ModelType } from '@/lib/generated/prisma/enums'
import type { BackendKind } from '@/lib/generation/backends/types'
import { modelPairProblem, modelSetupProblem } from '@/lib/models/rules'
import { formatJsonObject, parseIntegerInput, parseJsonObject } from '@/components/admin/shared/json-object'
import { PRICE_KEYS, priceKeysFor, priceLabel, pricesOf, type ModelRow } from './model-labels'
import type { PriceInputs } from './model-price-table'

/** The model form as typed: every field a string or a choice, read into a request body on save. */
export type ModelFormValues = {
  name: string
  type: ModelType
  backend: BackendKind
  endpoint: string
  secret: string
  isClearingSecret: boolean
  checkpoint: string
  prices: PriceInputs
  concurrency: string
  pool: string
  enabled: boolean
  sort: string
  optionsText: string
}

export function initialValues(model: ModelRow | null): ModelFormValues {
  const prices = model ? pricesOf(model) : {}
  return {
    name: model?.name ?? '',
    type: model?.type ?? 'STABLE_DIFFUSION',
    backend: (model?.backend as BackendKind | undefined) ?? 'sd-webui',
    endpoint: model?.endpoint ?? '',
    secret: '',
    isClearingSecret: false,
    checkpoint: model?.checkpoint ?? '',
    prices: Object.fromEntries(PRICE_KEYS.map((t) => [t, prices[t] === undefined ? '' : String(prices[t])])) as PriceInputs,
    concurrency: String(model?.concurrency ?? 1),
    pool: model?.pool ?? '',
    enabled: model?.enabled ?? true,
    sort: String(model?.sort ?? 0),
    optionsText: formatJsonObject(model?.options),
  }
}

const originOf = (url: string) => (URL.canParse(url.trim()) ? new URL(url.trim()).origin : url.trim())

/** A saved key never follows the endpoint to another host: it has to be typed again (or cleared). */
export function needsSecretAgain(model: ModelRow | null, v: ModelFormValues): boolean {
  return Boolean(model?.secret) && model !== null && originOf(v.endpoint) !== originOf(model.endpoint) && !v.secret && !v.isClearingSecret
}

type Read = { error: string; optionsError?: string } | { error: null; body: ModelInput }

/**
 * Checks the form as the server would and builds the body. `canEditEndpoint` (ADMIN): a
 * MANAGER never sends an endpoint, so the stored one stays as the ADMIN set it.
 */
export function readModelForm(model: ModelRow | null, v: ModelFormValues, canEditEndpoint: boolean): Read {
  const isDemo = v.backend === 'demo'
  if (!v.name.trim()) return { error: '请填写名称' }
  const pair = modelPairProblem(v.type, v.backend)
  if (pair) return { error: pair }
  if (!isDemo && !canEditEndpoint && !model?.endpoint) return { error: '接口地址只有管理员可以设置' }
  if (!isDemo && !/^https?:\/\/\S+$/.test(v.endpoint.trim())) return { error: '接口地址需以 http:// 或 https:// 开头' }
  if (!isDemo && needsSecretAgain(model, v)) return { error: '更换接口地址时请重新填写密钥（或清除密钥）' }
  const prices: NonNullable<ModelInput['prices']> = {}
  for (const t of priceKeysFor(v.type)) {
    const price = parseIntegerInput(v.prices[t])
    if (price === null) continue
    if (!Number.isInteger(price) || price < 0) return { error: `${priceLabel(t)}的价格需为不小于 0 的整数` }
    prices[t] = price
  }
  const slots = parseIntegerInput(v.concurrency)
  if (slots === null || !Number.isInteger(slots) || slots < 1 || slots > 64) return { error: '并发数需为 1-64 的整数' }
  const order = parseIntegerInput(v.sort) ?? 0
  if (!Number.isInteger(order)) return { error: '排序需为整数' }
  const options = parseJsonObject(v.optionsText)
  if (options.error !== null) return { error: options.error, optionsError: options.error }
  const setup = modelSetupProblem(v.type, v.backend, options.value)
  if (setup) return { error: setup, optionsError: setup }
  return {
    error: null,
    body: {
      name: v.name.trim(),
      type: v.type,
      backend: v.backend,
      ...(canEditEndpoint ? { endpoint: isDemo ? '' : v.endpoint.trim() } : {}),
      checkpoint: v.checkpoint.trim() || null,
      prices,
      options: options.value,
      concurrency: slots,
      pool: v.pool.trim() || null,
      enabled: v.enabled,
      sort: order,
      ...(v.isClearingSecret ? { secret: '' } : v.secret ? { secret: v.secret } : {}),
    },
  }
}
