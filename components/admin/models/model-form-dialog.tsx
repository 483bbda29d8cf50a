'use client'

import { useState, type FormEvent } from 'react'
import { useProfile } from '@/lib/api-client/hooks'
import { isAdmin } from '@/lib/auth/permissions'
import type { ModelType } from '@/lib/generated/prisma/enums'
import type { BackendKind } from '@/lib/generation/backends/types'
import { api } from '@/lib/api-client/request'
import { toast } from '@/lib/ui/toast-store'
import { useAction } from '@/lib/ui/use-action'
import { Field, Input, LabelOptions, Select, SwitchRow, Textarea } from '@/components/ui/field'
import { FormDialog } from '@/components/ui/form-dialog'
import { formatJsonObject, parseIntegerInput, parseJsonObject } from '@/components/admin/shared/json-object'
import { BACKEND_HINTS, BACKEND_LABELS, MODEL_TYPE_LABELS, PRICE_KEYS, priceKeysFor, priceLabel, pricesOf, type ModelRow } from './model-labels'
import { ModelPriceTable, type PriceInputs } from './model-price-table'

function initialPrices(model: ModelRow | null): PriceInputs {
  const prices = model ? pricesOf(model) : {}
  return Object.fromEntries(PRICE_KEYS.map((t) => [t, prices[t] === undefined ? '' : String(prices[t])])) as PriceInputs
}

const originOf = (url: string) => (URL.canParse(url.trim()) ? new URL(url.trim()).origin : url.trim())

/** Creates a model (model = null) or edits one; the secret is write-only (empty keeps it). */
export function ModelFormDialog({ model, onClose, onSaved }: { model: ModelRow | null; onClose: () => void; onSaved: () => void }) {
  const isNew = model === null
  const [name, setName] = useState(model?.name ?? '')
  const [type, setType] = useState<ModelType>(model?.type ?? 'STABLE_DIFFUSION')
  const [backend, setBackend] = useState<BackendKind>((model?.backend as BackendKind | undefined) ?? 'sd-webui')
  const [endpoint, setEndpoint] = useState(model?.endpoint ?? '')
  const [secret, setSecret] = useState('')
  const [isClearingSecret, setIsClearingSecret] = useState(false)
  const [checkpoint, setCheckpoint] = useState(model?.checkpoint ?? '')
  const [prices, setPrices] = useState(() => initialPrices(model))
  const [concurrency, setConcurrency] = useState(String(model?.concurrency ?? 1))
  const [pool, setPool] = useState(model?.pool ?? '')
  const [enabled, setEnabled] = useState(model?.enabled ?? true)
  const [sort, setSort] = useState(String(model?.sort ?? 0))
  const [optionsText, setOptionsText] = useState(() => formatJsonObject(model?.options))
  const [optionsError, setOptionsError] = useState<string | null>(null)
  const [busy, run] = useAction()
  const isDemo = backend === 'demo'
  const hints = BACKEND_HINTS[backend]
  const hasSecret = Boolean(model?.secret)
  const { profile } = useProfile()
  // Endpoints and backend keys are ADMIN-only; a MANAGER sees them (the key masked) and cannot change them.
  const isAdminUser = profile ? isAdmin(profile.role) : false
  const canEditSecret = isAdminUser
  const canEditEndpoint = isAdminUser
  // A saved key never follows the endpoint to another host: it has to be typed again (or cleared).
  const needsSecretAgain = hasSecret && !isNew && originOf(endpoint) !== originOf(model.endpoint) && !secret && !isClearingSecret

  async function save(e: FormEvent) {
    e.preventDefault()
    if (!name.trim()) return toast.error('请填写名称')
    if (!isDemo && !canEditEndpoint && !model?.endpoint) return toast.error('接口地址只有管理员可以设置')
    if (!isDemo && !/^https?:\/\/\S+$/.test(endpoint.trim())) return toast.error('接口地址需以 http:// 或 https:// 开头')
    if (needsSecretAgain && !isDemo) return toast.error('更换接口地址时请重新填写密钥（或清除密钥）')
    const priceValues: Partial<Record<string, number>> = {}
    for (const t of priceKeysFor(type)) {
      const price = parseIntegerInput(prices[t])
      if (price === null) continue
      if (!Number.isInteger(price) || price < 0) return toast.error(`${priceLabel(t)}的价格需为不小于 0 的整数`)
      priceValues[t] = price
    }
    const slots = parseIntegerInput(concurrency)
    if (slots === null || !Number.isInteger(slots) || slots < 1 || slots > 64) return toast.error('并发数需为 1-64 的整数')
    const order = parseIntegerInput(sort) ?? 0
    if (!Number.isInteger(order)) return toast.error('排序需为整数')
    const options = parseJsonObject(optionsText)
    setOptionsError(options.error)
    if (options.error !== null) return
    const secretPart = isClearingSecret ? { secret: '' } : secret ? { secret } : {}
    const body = {
      name: name.trim(),
      type,
      backend,
      // A MANAGER never sends one: the stored endpoint stays as the ADMIN set it.
      ...(canEditEndpoint ? { endpoint: isDemo ? '' : endpoint.trim() } : {}),
      checkpoint: checkpoint.trim() || null,
      prices: priceValues,
      options: options.value,
      concurrency: slots,
      pool: pool.trim() || null,
      enabled,
      sort: order,
      ...secretPart,
    }
    await run(async () => {
      if (isNew) await api.post('/api/admin/models', body)
      else await api.patch(`/api/admin/models/${model.id}`, body)
      toast.success(isNew ? '模型已创建' : '已保存')
      onSaved()
    })
  }

  return (
    <FormDialog title={isNew ? '新建模型' : `编辑模型 ${model.name}`} onClose={onClose} className="sm:max-w-2xl!" formId="model-form" busy={busy}>
      <form id="model-form" onSubmit={save} className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="名称" htmlFor="mf-name">
            <Input id="mf-name" value={name} onChange={(e) => setName(e.target.value)} maxLength={40} />
          </Field>
          <Field label="类型" htmlFor="mf-type">
            <Select id="mf-type" value={type} onChange={(e) => setType(e.target.value as ModelType)}>
              <LabelOptions labels={MODEL_TYPE_LABELS} />
            </Select>
          </Field>
          <Field label="后端" htmlFor="mf-backend">
            <Select id="mf-backend" value={backend} onChange={(e) => setBackend(e.target.value as BackendKind)}>
              <LabelOptions labels={BACKEND_LABELS} />
            </Select>
          </Field>
          {!isDemo && (
            <Field label="接口地址" htmlFor="mf-endpoint" help={canEditEndpoint ? undefined : '接口地址只有管理员可以设置或修改'}>
              <Input
                id="mf-endpoint"
                value={endpoint}
                onChange={(e) => setEndpoint(e.target.value)}
                disabled={!canEditEndpoint}
                maxLength={500}
                placeholder={hints.endpoint}
                autoComplete="off"
              />
            </Field>
          )}
          {!isDemo && (
            <Field
              label="密钥"
              htmlFor="mf-secret"
              help={!canEditSecret ? '密钥只有管理员可以设置或修改' : needsSecretAgain ? '接口地址已更换，请重新填写密钥（或清除密钥）' : isNew || !hasSecret ? hints.secret : '留空则保持原密钥不变'}
            >
              <Input
                id="mf-secret"
                type="password"
                value={secret}
                onChange={(e) => setSecret(e.target.value)}
                disabled={isClearingSecret || !canEditSecret}
                placeholder={hasSecret ? model?.secret : '未设置'}
                autoComplete="new-password"
                maxLength={500}
              />
              {hasSecret && canEditSecret && (
                <label className="mt-1.5 flex items-center gap-2 text-xs text-zinc-400">
                  <input type="checkbox" checked={isClearingSecret} onChange={(e) => (setIsClearingSecret(e.target.checked), setSecret(''))} className="accent-brand-500" />
                  清除已保存的密钥
                </label>
              )}
            </Field>
          )}
          <Field label="Checkpoint（可选）" htmlFor="mf-checkpoint" help="后端使用的底模名称，留空则用后端当前的">
            <Input id="mf-checkpoint" value={checkpoint} onChange={(e) => setCheckpoint(e.target.value)} maxLength={200} />
          </Field>
          <Field label="并发数" htmlFor="mf-concurrency" help="该后端同时运行的任务数，1-64">
            <Input id="mf-concurrency" type="number" inputMode="numeric" min={1} max={64} value={concurrency} onChange={(e) => setConcurrency(e.target.value)} />
          </Field>
          <Field label="资源池（可选）" htmlFor="mf-pool" help="同名资源池的模型互为备份：任务交给其中最空闲的健康实例，某个实例出错时自动转给其他实例">
            <Input id="mf-pool" value={pool} onChange={(e) => setPool(e.target.value)} maxLength={40} placeholder="例如 sd15" />
          </Field>
          <Field label="排序" htmlFor="mf-sort" help="数字小的排在前面，也优先接单">
            <Input id="mf-sort" type="number" inputMode="numeric" value={sort} onChange={(e) => setSort(e.target.value)} />
          </Field>
        </div>
        <ModelPriceTable keys={priceKeysFor(type)} value={prices} onChange={setPrices} />
        <SwitchRow id="mf-enabled" label="启用" checked={enabled} onChange={setEnabled} />
        <details className="rounded-xl bg-zinc-950/40 p-3 ring-1 ring-zinc-800" open={Boolean(optionsError) || undefined}>
          <summary className="cursor-pointer text-sm text-zinc-300">高级设置（options JSON）</summary>
          <Field label="后端专用设置" htmlFor="mf-options" help={hints.options} error={optionsError} className="mt-3">
            <Textarea
              id="mf-options"
              rows={6}
              value={optionsText}
              onChange={(e) => (setOptionsText(e.target.value), setOptionsError(null))}
              className="font-mono text-xs"
              placeholder="{}"
              spellCheck={false}
            />
          </Field>
        </details>
      </form>
    </FormDialog>
  )
}
