'use client'

import { useState, type FormEvent } from 'react'
import type { Json } from '@/lib/api-client/hooks'
import { api } from '@/lib/api-client/request'
import type { listPromptTemplates } from '@/lib/prompts/prompt-templates'
import { toast } from '@/lib/ui/toast-store'
import { Button } from '@/components/ui/button'
import { Dialog } from '@/components/ui/dialog'
import { Field, Input, Switch, Textarea } from '@/components/ui/field'
import { CoverField } from '@/components/admin/shared/cover-field'
import { parseIntegerInput } from '@/components/admin/shared/json-object'

export type PromptRow = Json<Awaited<ReturnType<typeof listPromptTemplates>>[number]>

/** Creates a prompt template (template = null) or edits one. */
export function PromptFormDialog({ template, categories, defaultCategory, onClose, onSaved }: { template: PromptRow | null; categories: string[]; defaultCategory: string; onClose: () => void; onSaved: () => void }) {
  const isNew = template === null
  const [category, setCategory] = useState(template?.category ?? defaultCategory)
  const [title, setTitle] = useState(template?.title ?? '')
  const [prompt, setPrompt] = useState(template?.prompt ?? '')
  const [negativePrompt, setNegativePrompt] = useState(template?.negativePrompt ?? '')
  const [cover, setCover] = useState(template?.cover ?? '')
  const [sort, setSort] = useState(String(template?.sort ?? 0))
  const [enabled, setEnabled] = useState(template?.enabled ?? true)
  const [busy, setBusy] = useState(false)

  async function save(e: FormEvent) {
    e.preventDefault()
    if (!category.trim()) return toast.error('请填写分类')
    if (!title.trim()) return toast.error('请填写标题')
    if (!prompt.trim()) return toast.error('请填写提示词')
    const order = parseIntegerInput(sort) ?? 0
    if (!Number.isInteger(order)) return toast.error('排序需为整数')
    const body = { category: category.trim(), title: title.trim(), prompt: prompt.trim(), negativePrompt: negativePrompt.trim(), cover: cover.trim() || null, sort: order, enabled }
    setBusy(true)
    try {
      if (isNew) await api.post('/api/admin/prompts', body)
      else await api.patch(`/api/admin/prompts/${template.id}`, body)
      toast.success(isNew ? '提示词已创建' : '已保存')
      onSaved()
    } catch {
      // shown by the request layer
    } finally {
      setBusy(false)
    }
  }

  return (
    <Dialog
      open
      title={isNew ? '新建提示词' : `编辑提示词 ${template.title}`}
      onClose={onClose}
      className="sm:max-w-2xl!"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            取消
          </Button>
          <Button type="submit" form="prompt-form" loading={busy}>
            保存
          </Button>
        </>
      }
    >
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
          <div className="flex h-10 items-center justify-between sm:mb-5">
            <label htmlFor="pf-enabled" className="text-sm text-zinc-300">
              启用
            </label>
            <Switch id="pf-enabled" checked={enabled} onChange={setEnabled} label="启用" />
          </div>
        </div>
      </form>
    </Dialog>
  )
}
