'use client'

import type { ModelType } from '@/lib/generated/prisma/enums'
import type { BackendKind } from '@/lib/generation/backends/types'
import { modelPairProblem } from '@/lib/models/rules'
import { Field, Input, LabelOptions, Select } from '@/components/ui/field'
import { BACKEND_HINTS, BACKEND_LABELS, MODEL_TYPE_LABELS } from './model-labels'

type Edit = (patch: { type?: ModelType; backend?: BackendKind; endpoint?: string }) => void

/** 类型, 后端 and, for a real backend, its address. A type the backend cannot run says so under 后端. */
export function BackendFields({
  type,
  backend,
  endpoint,
  canEditEndpoint,
  onChange,
}: {
  type: ModelType
  backend: BackendKind
  endpoint: string
  canEditEndpoint: boolean
  onChange: Edit
}) {
  return (
    <>
      <Field label="类型" htmlFor="mf-type">
        <Select id="mf-type" value={type} onChange={(e) => onChange({ type: e.target.value as ModelType })}>
          <LabelOptions labels={MODEL_TYPE_LABELS} />
        </Select>
      </Field>
      <Field label="后端" htmlFor="mf-backend" error={modelPairProblem(type, backend)}>
        <Select id="mf-backend" value={backend} onChange={(e) => onChange({ backend: e.target.value as BackendKind })}>
          <LabelOptions labels={BACKEND_LABELS} />
        </Select>
      </Field>
      {backend !== 'demo' && (
        <Field label="接口地址" htmlFor="mf-endpoint" help={canEditEndpoint ? undefined : '接口地址只有管理员可以设置或修改'}>
          <Input
            id="mf-endpoint"
            value={endpoint}
            onChange={(e) => onChange({ endpoint: e.target.value })}
            disabled={!canEditEndpoint}
            maxLength={500}
            placeholder={BACKEND_HINTS[backend].endpoint}
            autoComplete="off"
          />
        </Field>
      )}
    </>
  )
}

/**
 * The backend's key: write-only (the stored one shows masked as the placeholder; empty keeps
 * it), clearable, ADMIN-only, and asked for again when the endpoint moves to another host.
 */
export function SecretField({
  backend,
  secret,
  storedMask,
  isNew,
  isClearing,
  mustRetype,
  canEdit,
  onChange,
}: {
  backend: BackendKind
  secret: string
  storedMask: string | null
  isNew: boolean
  isClearing: boolean
  mustRetype: boolean
  canEdit: boolean
  onChange: (patch: { secret?: string; isClearingSecret?: boolean }) => void
}) {
  const hasSecret = Boolean(storedMask)
  const help = !canEdit
    ? '密钥只有管理员可以设置或修改'
    : mustRetype
      ? '接口地址已更换，请重新填写密钥（或清除密钥）'
      : isNew || !hasSecret
        ? BACKEND_HINTS[backend].secret
        : '留空则保持原密钥不变'
  return (
    <Field label="密钥" htmlFor="mf-secret" help={help}>
      <Input
        id="mf-secret"
        type="password"
        value={secret}
        onChange={(e) => onChange({ secret: e.target.value })}
        disabled={isClearing || !canEdit}
        placeholder={storedMask ?? '未设置'}
        autoComplete="new-password"
        maxLength={500}
      />
      {hasSecret && canEdit && (
        <label className="mt-1.5 flex items-center gap-2 text-xs text-zinc-400">
          <input
            type="checkbox"
            checked={isClearing}
            onChange={(e) => onChange({ isClearingSecret: e.target.checked, secret: '' })}
            className="accent-brand-500"
          />
          清除已保存的密钥
        </label>
      )}
    </Field>
  )
}
