'use client'

import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { queryKeys } from '@/lib/api-client/query-client'
import { api } from '@/lib/api-client/request'
import { Button } from '@/components/ui/button'
import { PageTitle } from '@/components/ui/card'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { DataTable } from '@/components/ui/data-table'
import { Switch } from '@/components/ui/field'
import { Td } from '@/components/ui/table'
import { CoverThumb } from '@/components/admin/shared/cover-field'
import { useRowActions } from '@/components/admin/shared/use-row-actions'
import { CustomModelFormDialog, type CustomModelRow } from './custom-model-form-dialog'

/** /admin/custom_model_mana: 风格模型, the presets 小狸猫 offers, each bound to a backend model. */
export function CustomModelManager() {
  const [editing, setEditing] = useState<CustomModelRow | 'new' | null>(null)
  const queryClient = useQueryClient()

  const { data, isLoading } = useQuery({ queryKey: queryKeys.adminCustomModels, queryFn: () => api.get<CustomModelRow[]>('/api/admin/custom-models') })
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.adminCustomModels })
  const { deleting, setDeleting, isDeleting, confirmDelete, toggleEnabled } = useRowActions<CustomModelRow>('/api/admin/custom-models', refresh)

  const columns = ['封面', '名称', '后端模型', 'Checkpoint', 'LoRA', '触发词', '价格（积分/张）', '启用', '排序', '操作']
  return (
    <div>
      <PageTitle actions={<Button onClick={() => setEditing('new')}>新建风格模型</Button>}>风格模型</PageTitle>
      <DataTable columns={columns} isLoading={isLoading} isEmpty={data?.length === 0} empty="还没有风格模型">
        {data?.map((p) => (
          <tr key={p.id} className="hover:bg-zinc-900/50">
            <Td>
              <CoverThumb url={p.cover} alt={p.name} />
            </Td>
            <Td className="font-medium text-white">{p.name}</Td>
            <Td>{p.model.name}</Td>
            <Td className="max-w-40 truncate text-zinc-400" title={p.checkpoint ?? undefined}>
              {p.checkpoint || '-'}
            </Td>
            <Td className="max-w-40 truncate text-zinc-400" title={p.lora ?? undefined}>
              {p.lora || '-'}
            </Td>
            <Td className="max-w-56 truncate text-zinc-400" title={p.triggerWords || undefined}>
              {p.triggerWords || '-'}
            </Td>
            <Td>{p.price}</Td>
            <Td>
              <Switch checked={p.enabled} onChange={() => toggleEnabled(p)} label={`启用 ${p.name}`} />
            </Td>
            <Td>{p.sort}</Td>
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

      {editing && (
        <CustomModelFormDialog
          preset={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={async () => {
            setEditing(null)
            await refresh()
          }}
        />
      )}
      <ConfirmDialog open={Boolean(deleting)} title="删除风格模型" danger confirmText="删除" loading={isDeleting} onConfirm={confirmDelete} onClose={() => setDeleting(null)}>
        确定删除风格模型 <span className="font-medium text-white">{deleting?.name}</span> 吗？已生成的作品会保留。
      </ConfirmDialog>
    </div>
  )
}
