'use client'

import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { queryKeys } from '@/lib/api-client/query-client'
import { api } from '@/lib/api-client/request'
import { Button } from '@/components/ui/button'
import { Badge, PageTitle } from '@/components/ui/card'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { DataTable } from '@/components/ui/data-table'
import { Input, Select, Switch } from '@/components/ui/field'
import { Td } from '@/components/ui/table'
import { CoverThumb } from '@/components/admin/shared/cover-field'
import { useRowActions } from '@/components/admin/shared/use-row-actions'
import { PromptFormDialog, type PromptRow } from './prompt-form-dialog'

/** /admin/prompt_mana: the curated prompts users pick on the creation pages, by category. */
export function PromptManager() {
  const [category, setCategory] = useState('')
  const [keyword, setKeyword] = useState('')
  const [editing, setEditing] = useState<PromptRow | 'new' | null>(null)
  const queryClient = useQueryClient()

  const { data, isLoading } = useQuery({ queryKey: queryKeys.adminPrompts, queryFn: () => api.get<PromptRow[]>('/api/admin/prompts') })
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.adminPrompts })
  const { deleting, setDeleting, isDeleting, confirmDelete, toggleEnabled } = useRowActions<PromptRow>('/api/admin/prompts', refresh)
  const categories = [...new Set(data?.map((p) => p.category))]
  const needle = keyword.trim().toLowerCase()
  const rows = data?.filter((p) => (!category || p.category === category) && (!needle || `${p.title}\n${p.prompt}`.toLowerCase().includes(needle)))

  const columns = ['封面', '分类', '标题', '提示词', '反向提示词', '排序', '启用', '操作']
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
      <DataTable columns={columns} isLoading={isLoading} isEmpty={rows?.length === 0} empty={data?.length ? '没有符合条件的提示词' : '还没有提示词'}>
        {rows?.map((p) => (
          <tr key={p.id} className="hover:bg-zinc-900/50">
            <Td>
              <CoverThumb url={p.cover} alt={p.title} />
            </Td>
            <Td>
              <Badge>{p.category}</Badge>
            </Td>
            <Td className="font-medium text-white">{p.title}</Td>
            <Td className="max-w-80 truncate text-zinc-300" title={p.prompt}>
              {p.prompt}
            </Td>
            <Td className="max-w-56 truncate text-zinc-400" title={p.negativePrompt || undefined}>
              {p.negativePrompt || '-'}
            </Td>
            <Td>{p.sort}</Td>
            <Td>
              <Switch checked={p.enabled} onChange={() => toggleEnabled(p)} label={`启用 ${p.title}`} />
            </Td>
            <Td>
              <div className="flex gap-1">
                <Button size="sm" variant="ghost" onClick={() => setEditing(p)}>
                  编辑
                </Button>
                <Button size="sm" variant="ghost" className="text-red-400" onClick={() => setDeleting(p)}>
                  删除
                </Button>
              </div>
            </Td>
          </tr>
        ))}
      </DataTable>
      {rows && rows.length > 0 && <p className="mt-4 text-sm text-zinc-400">总计 {rows.length} 条</p>}

      {editing && (
        <PromptFormDialog
          template={editing === 'new' ? null : editing}
          categories={categories}
          defaultCategory={category}
          onClose={() => setEditing(null)}
          onSaved={async () => {
            setEditing(null)
            await refresh()
          }}
        />
      )}
      <ConfirmDialog open={Boolean(deleting)} title="删除提示词" danger confirmText="删除" loading={isDeleting} onConfirm={confirmDelete} onClose={() => setDeleting(null)}>
        确定删除提示词 <span className="font-medium text-white">{deleting?.title}</span> 吗？
      </ConfirmDialog>
    </div>
  )
}
