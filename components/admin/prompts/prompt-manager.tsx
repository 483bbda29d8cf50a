'use client'

import { useState } from 'react'
import { useAdminPrompts, useDeletePrompt, useUpdatePrompt } from '@/lib/api-client/resources/admin-prompts'
import { Button } from '@/components/ui/button'
import { editDeleteColumn } from '@/components/admin/shared/edit-delete-column'
import { Badge, PageTitle } from '@/components/ui/card'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { DataTable, type Column } from '@/components/ui/data-table'
import { Input, Select, Switch } from '@/components/ui/field'
import { CoverThumb } from '@/components/admin/shared/cover-field'
import { useRowActions } from '@/components/admin/shared/use-row-actions'
import { PromptFormDialog, type PromptRow } from './prompt-form-dialog'

/** /admin/prompt_mana: the curated prompts users pick on the creation pages, by category. */
export function PromptManager() {
  const [category, setCategory] = useState('')
  const [keyword, setKeyword] = useState('')
  const [editing, setEditing] = useState<PromptRow | 'new' | null>(null)
  const { data, isLoading, isError } = useAdminPrompts()
  const deletePrompt = useDeletePrompt()
  const updatePrompt = useUpdatePrompt()
  const { deleting, setDeleting, isDeleting, confirmDelete, toggleEnabled } = useRowActions<PromptRow>({
    remove: deletePrompt.mutateAsync,
    setEnabled: (id, enabled) => updatePrompt.mutateAsync({ id, body: { enabled } }),
  })
  const categories = [...new Set(data?.map((p) => p.category))]
  const needle = keyword.trim().toLowerCase()
  const rows = data?.filter((p) => (!category || p.category === category) && (!needle || `${p.title}\n${p.prompt}`.toLowerCase().includes(needle)))

  const columns: Column<PromptRow>[] = [
    { header: '封面', cell: (p) => <CoverThumb url={p.cover} alt={p.title} /> },
    { header: '分类', cell: (p) => <Badge>{p.category}</Badge> },
    { header: '标题', cell: (p) => p.title, className: 'font-medium text-white', mobile: 'title' },
    { header: '提示词', cell: (p) => <span title={p.prompt}>{p.prompt}</span>, className: 'max-w-80 truncate text-zinc-300 max-sm:line-clamp-2' },
    {
      header: '反向提示词',
      cell: (p) => <span title={p.negativePrompt || undefined}>{p.negativePrompt || '-'}</span>,
      className: 'max-w-56 truncate text-zinc-400',
      mobile: 'hide',
    },
    { header: '排序', cell: (p) => p.sort, mobile: 'hide' },
    { header: '启用', cell: (p) => <Switch checked={p.enabled} onChange={() => toggleEnabled(p)} label={`启用 ${p.title}`} /> },
    editDeleteColumn<PromptRow>({ onEdit: setEditing, onDelete: setDeleting }),
  ]
  return (
    <div>
      <PageTitle actions={<Button onClick={() => setEditing('new')}>新建提示词</Button>}>提示词管理</PageTitle>
      <div className="mb-4 flex flex-wrap gap-2">
        <Select aria-label="分类" value={category} onChange={(e) => setCategory(e.target.value)} className="w-40">
          <option value="">全部分类</option>
          {categories.map((c) => (
            <option key={c} value={c}>
              {c}（{data?.filter((p) => p.category === c).length}）
            </option>
          ))}
        </Select>
        <Input aria-label="搜索提示词" value={keyword} onChange={(e) => setKeyword(e.target.value)} placeholder="搜索标题或提示词" className="max-w-64" />
      </div>
      <DataTable
        columns={columns}
        rows={rows}
        rowKey={(p) => p.id}
        isLoading={isLoading}
        isError={isError}
        empty={data?.length ? '没有符合条件的提示词' : '还没有提示词'}
        rowClassName="hover:bg-zinc-900/50"
      />
      {rows && rows.length > 0 && <p className="mt-4 text-sm text-zinc-400">总计 {rows.length} 条</p>}

      {editing && (
        <PromptFormDialog
          template={editing === 'new' ? null : editing}
          categories={categories}
          defaultCategory={category}
          onClose={() => setEditing(null)}
          onSaved={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        open={Boolean(deleting)}
        title="删除提示词"
        danger
        confirmText="删除"
        loading={isDeleting}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      >
        确定删除提示词 <span className="font-medium text-white">{deleting?.title}</span> 吗？
      </ConfirmDialog>
    </div>
  )
}
