'use client'

import { useState, type FormEvent } from 'react'
import { useCreatePrompt, useUpdatePrompt, type PromptRow } from '@/lib/api-client/resources/admin-prompts'
import { toast } from '@/lib/ui/toast-store'
import { useAction } from '@/lib/ui/use-action'
import { Field, Input, SwitchRow, Textarea } from '@/components/ui/field'
import { FormDialog } from '@/components/ui/form-dialog'
import { changedFromRow } from '@/components/admin/shared/changed-from-row'
import { CoverField } from '@/components/admin/shared/cover-field'
import { parseIntegerInput } from '@/components/admin/shared/json-object'

export type { PromptRow }

/** Creates a prompt template (template = null) or edits one. */
export function PromptFormDialog({
  template,
  categories,
  defaultCategory,
  onClose,
  onSaved,
}: {
  template: PromptRow | null
  categories: string[]
  defaultCategory: string
  onClose: () => void
  onSaved: () => void
}) {
  const isNew = template === null
  const [category, setCategory] = useState(template?.category ?? defaultCategory)
  const [title, setTitle] = useState(template?.title ?? '')
  const [prompt, setPrompt] = useState(template?.prompt ?? '')
  const [negativePrompt, setNegativePrompt] = useState(template?.negativePrompt ?? '')
  const [cover, setCover] = useState(template?.cover ?? '')
  const [sort, setSort] = useState(String(template?.sort ?? 0))
  const [enabled, setEnabled] = useState(template?.enabled ?? true)
  const [busy, run] = useAction()
  const createPrompt = useCreatePrompt()
  const updatePrompt = useUpdatePrompt()

  async function save(e: FormEvent) {
    e.preventDefault()
    if (!category.trim()) return toast.error('请填写分类')
    if (!title.trim()) return toast.error('请填写标题')
    if (!prompt.trim()) return toast.error('请填写提示词')
    const order = parseIntegerInput(sort) ?? 0
    if (!Number.isInteger(order)) return toast.error('排序需为整数')
    const body = {
      category: category.trim(),
      title: title.trim(),
      prompt: prompt.trim(),
      negativePrompt: negativePrompt.trim(),
      cover: cover.trim() || null,
      sort: order,
      enabled,
    }
    await run(async () => {
      if (isNew) await createPrompt.mutateAsync(body)
      else await updatePrompt.mutateAsync({ id: template.id, body: changedFromRow(template, body) })
      toast.success(isNew ? '提示词已创建' : '已保存')
      onSaved()
    })
  }

  return (
    <FormDialog title={isNew ? '新建提示词' : `编辑提示词 ${template.title}`} onClose={onClose} className="sm:max-w-2xl!" formId="prompt-form" busy={busy}>
      <form id="prompt-form" onSubmit={save} className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="分类" htmlFor="pf-category" help="可选已有分类或输入新分类">
            <Input id="pf-category" list="pf-categories" value={category} onChange={(e) => setCategory(e.target.value)} maxLength={20} autoComplete="off" />
            <datalist id="pf-categories">
              {categories.map((c) => (
                <option key={c} value={c} />
              ))}
            </datalist>
          </Field>
          <Field label="标题" htmlFor="pf-title">
            <Input id="pf-title" value={title} onChange={(e) => setTitle(e.target.value)} maxLength={40} />
          </Field>
        </div>
        <Field label="提示词" htmlFor="pf-prompt" help={`${prompt.length}/2000`}>
          <Textarea id="pf-prompt" rows={4} value={prompt} onChange={(e) => setPrompt(e.target.value)} maxLength={2000} />
        </Field>
        <Field label="反向提示词（可选）" htmlFor="pf-negative">
          <Textarea id="pf-negative" rows={2} value={negativePrompt} onChange={(e) => setNegativePrompt(e.target.value)} maxLength={2000} />
        </Field>
        <CoverField id="pf-cover" value={cover} onChange={setCover} />
        <div className="grid items-end gap-4 sm:grid-cols-2">
          <Field label="排序" htmlFor="pf-sort" help="同一分类内数字小的排在前面">
            <Input id="pf-sort" type="number" inputMode="numeric" value={sort} onChange={(e) => setSort(e.target.value)} />
          </Field>
          <SwitchRow id="pf-enabled" label="启用" checked={enabled} onChange={setEnabled} className="h-10 sm:mb-5" />
        </div>
      </form>
    </FormDialog>
  )
}
