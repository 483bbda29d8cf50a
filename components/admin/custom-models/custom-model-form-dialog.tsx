'use client'

import { useState, type FormEvent } from 'react'
import { useCreateCustomModel, useUpdateCustomModel, type CustomModelRow } from '@/lib/api-client/resources/admin-custom-models'
import { useAdminModels } from '@/lib/api-client/resources/admin-models'
import { toast } from '@/lib/ui/toast-store'
import { useAction } from '@/lib/ui/use-action'
import { Field, Input, Select, SwitchRow, Textarea } from '@/components/ui/field'
import { FormDialog } from '@/components/ui/form-dialog'
import { changedFromRow } from '@/components/admin/shared/changed-from-row'
import { CoverField } from '@/components/admin/shared/cover-field'
import { formatJsonObject, parseIntegerInput, parseJsonObject } from '@/components/admin/shared/json-object'
import { backendLabel } from '@/components/admin/models/model-labels'

export type { CustomModelRow }

/** Creates a style preset (preset = null) or edits one. */
export function CustomModelFormDialog({ preset, onClose, onSaved }: { preset: CustomModelRow | null; onClose: () => void; onSaved: () => void }) {
  const isNew = preset === null
  const [name, setName] = useState(preset?.name ?? '')
  const [modelId, setModelId] = useState(preset?.modelId ?? '')
  const [checkpoint, setCheckpoint] = useState(preset?.checkpoint ?? '')
  const [lora, setLora] = useState(preset?.lora ?? '')
  const [triggerWords, setTriggerWords] = useState(preset?.triggerWords ?? '')
  const [paramsText, setParamsText] = useState(() => formatJsonObject(preset?.defaultParams))
  const [paramsError, setParamsError] = useState<string | null>(null)
  const [cover, setCover] = useState(preset?.cover ?? '')
  const [price, setPrice] = useState(preset ? String(preset.price) : '')
  const [enabled, setEnabled] = useState(preset?.enabled ?? true)
  const [sort, setSort] = useState(String(preset?.sort ?? 0))
  const [busy, run] = useAction()
  const { data: models } = useAdminModels()
  const createPreset = useCreateCustomModel()
  const updatePreset = useUpdateCustomModel()

  async function save(e: FormEvent) {
    e.preventDefault()
    if (!name.trim()) return toast.error('请填写名称')
    if (!modelId) return toast.error('请选择后端模型')
    const points = parseIntegerInput(price)
    if (points === null || !Number.isInteger(points) || points < 0) return toast.error('价格需为不小于 0 的整数')
    const order = parseIntegerInput(sort) ?? 0
    if (!Number.isInteger(order)) return toast.error('排序需为整数')
    const defaults = parseJsonObject(paramsText)
    setParamsError(defaults.error)
    if (defaults.error !== null) return
    const body = {
      name: name.trim(),
      modelId,
      checkpoint: checkpoint.trim() || null,
      lora: lora.trim() || null,
      triggerWords: triggerWords.trim(),
      defaultParams: defaults.value,
      cover: cover.trim() || null,
      price: points,
      enabled,
      sort: order,
    }
    await run(async () => {
      if (isNew) await createPreset.mutateAsync(body)
      else await updatePreset.mutateAsync({ id: preset.id, body: changedFromRow(preset, body) })
      toast.success(isNew ? '风格模型已创建' : '已保存')
      onSaved()
    })
  }

  return (
    <FormDialog
      title={isNew ? '新建风格模型' : `编辑风格模型 ${preset.name}`}
      onClose={onClose}
      className="sm:max-w-2xl!"
      formId="custom-model-form"
      busy={busy}
    >
      <form id="custom-model-form" onSubmit={save} className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="名称" htmlFor="cm-name">
            <Input id="cm-name" value={name} onChange={(e) => setName(e.target.value)} maxLength={40} />
          </Field>
          <Field label="后端模型" htmlFor="cm-model">
            <Select id="cm-model" value={modelId} onChange={(e) => setModelId(e.target.value)}>
              <option value="">请选择</option>
              {models?.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.name}（{backendLabel(m.backend)}）{m.enabled ? '' : ' [已停用]'}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Checkpoint（可选）" htmlFor="cm-checkpoint" help="留空则使用后端模型的设置">
            <Input id="cm-checkpoint" value={checkpoint} onChange={(e) => setCheckpoint(e.target.value)} maxLength={200} />
          </Field>
          <Field label="LoRA（可选）" htmlFor="cm-lora">
            <Input id="cm-lora" value={lora} onChange={(e) => setLora(e.target.value)} maxLength={200} />
          </Field>
          <Field label="价格（积分/张）" htmlFor="cm-price">
            <Input id="cm-price" type="number" inputMode="numeric" min={0} value={price} onChange={(e) => setPrice(e.target.value)} />
          </Field>
          <Field label="排序" htmlFor="cm-sort" help="数字小的排在前面">
            <Input id="cm-sort" type="number" inputMode="numeric" value={sort} onChange={(e) => setSort(e.target.value)} />
          </Field>
        </div>
        <Field label="触发词" htmlFor="cm-trigger" help="生成时自动加在用户提示词前面">
          <Textarea id="cm-trigger" rows={2} value={triggerWords} onChange={(e) => setTriggerWords(e.target.value)} maxLength={500} />
        </Field>
        <Field
          label="默认参数（JSON）"
          htmlFor="cm-params"
          error={paramsError}
          help="用户未指定时使用，可用字段：negativePrompt、width、height、steps、cfgScale、seed、sampler、count"
        >
          <Textarea
            id="cm-params"
            rows={4}
            value={paramsText}
            onChange={(e) => (setParamsText(e.target.value), setParamsError(null))}
            className="font-mono text-xs"
            placeholder='{"width": 512, "height": 768, "steps": 25}'
            spellCheck={false}
          />
        </Field>
        <CoverField id="cm-cover" value={cover} onChange={setCover} />
        <SwitchRow id="cm-enabled" label="启用" checked={enabled} onChange={setEnabled} />
      </form>
    </FormDialog>
  )
}
