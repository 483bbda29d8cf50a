'use client'

import { useState, type FormEvent } from 'react'
import { useCreateModel, useUpdateModel } from '@/lib/api-client/resources/admin-models'
import { useProfile } from '@/lib/api-client/resources/profile'
import { isAdmin } from '@/lib/auth/permissions'
import { toast } from '@/lib/ui/toast-store'
import { useAction } from '@/lib/ui/use-action'
import { Field, Input, SwitchRow, Textarea } from '@/components/ui/field'
import { FormDialog } from '@/components/ui/form-dialog'
import { BackendFields, SecretField } from './model-backend-fields'
import { initialValues, needsSecretAgain, readModelForm, type ModelFormValues } from './model-form'
import { BACKEND_HINTS, priceKeysFor, type ModelRow } from './model-labels'
import { ModelPriceTable } from './model-price-table'

/** Creates a model (model = null) or edits one; the secret is write-only (empty keeps it). */
export function ModelFormDialog({ model, onClose, onSaved }: { model: ModelRow | null; onClose: () => void; onSaved: () => void }) {
  const isNew = model === null
  const [values, setValues] = useState(() => initialValues(model))
  const [optionsError, setOptionsError] = useState<string | null>(null)
  const [busy, run] = useAction()
  const createModel = useCreateModel()
  const updateModel = useUpdateModel()
  const { profile } = useProfile()
  // Endpoints and backend keys are ADMIN-only; a MANAGER sees them (the key masked) and cannot change them.
  const isAdminUser = profile ? isAdmin(profile.role) : false
  const edit = (patch: Partial<ModelFormValues>) => setValues((v) => ({ ...v, ...patch }))
  const text = (key: 'name' | 'checkpoint' | 'concurrency' | 'pool' | 'sort') => ({
    value: values[key],
    onChange: (e: { target: { value: string } }) => edit({ [key]: e.target.value }),
  })

  async function save(e: FormEvent) {
    e.preventDefault()
    const read = readModelForm(model, values, isAdminUser)
    setOptionsError(read.error === null ? null : (read.optionsError ?? null))
    if (read.error !== null) return read.optionsError ? undefined : toast.error(read.error)
    await run(async () => {
      if (isNew) await createModel.mutateAsync(read.body)
      else await updateModel.mutateAsync({ id: model.id, body: read.body })
      toast.success(isNew ? '模型已创建' : '已保存')
      onSaved()
    })
  }

  return (
    <FormDialog title={isNew ? '新建模型' : `编辑模型 ${model.name}`} onClose={onClose} className="sm:max-w-2xl!" formId="model-form" busy={busy}>
      <form id="model-form" onSubmit={save} className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="名称" htmlFor="mf-name">
            <Input id="mf-name" {...text('name')} maxLength={40} />
          </Field>
          <BackendFields type={values.type} backend={values.backend} endpoint={values.endpoint} canEditEndpoint={isAdminUser} onChange={edit} />
          {values.backend !== 'demo' && (
            <SecretField
              backend={values.backend}
              secret={values.secret}
              storedMask={model?.secret || null}
              isNew={isNew}
              isClearing={values.isClearingSecret}
              mustRetype={needsSecretAgain(model, values)}
              canEdit={isAdminUser}
              onChange={edit}
            />
          )}
          <Field label="Checkpoint（可选）" htmlFor="mf-checkpoint" help="后端使用的底模名称，留空则用后端当前的">
            <Input id="mf-checkpoint" {...text('checkpoint')} maxLength={200} />
          </Field>
          <Field label="并发数" htmlFor="mf-concurrency" help="该后端同时运行的任务数，1-64">
            <Input id="mf-concurrency" type="number" inputMode="numeric" min={1} max={64} {...text('concurrency')} />
          </Field>
          <Field label="资源池（可选）" htmlFor="mf-pool" help="同名资源池的模型互为备份：任务交给其中最空闲的健康实例，某个实例出错时自动转给其他实例">
            <Input id="mf-pool" {...text('pool')} maxLength={40} placeholder="例如 sd15" />
          </Field>
          <Field label="排序" htmlFor="mf-sort" help="数字小的排在前面，也优先接单">
            <Input id="mf-sort" type="number" inputMode="numeric" {...text('sort')} />
          </Field>
        </div>
        <ModelPriceTable keys={priceKeysFor(values.type)} value={values.prices} onChange={(prices) => edit({ prices })} />
        <SwitchRow id="mf-enabled" label="启用" checked={values.enabled} onChange={(enabled) => edit({ enabled })} />
        <details className="rounded-xl bg-zinc-950/40 p-3 ring-1 ring-zinc-800" open={Boolean(optionsError) || undefined}>
          <summary className="cursor-pointer text-sm text-zinc-300">高级设置（options JSON）</summary>
          <Field label="后端专用设置" htmlFor="mf-options" help={BACKEND_HINTS[values.backend].options} error={optionsError} className="mt-3">
            <Textarea
              id="mf-options"
              rows={6}
              value={values.optionsText}
              onChange={(e) => (edit({ optionsText: e.target.value }), setOptionsError(null))}
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
