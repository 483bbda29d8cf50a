'use client'

import { useState } from 'react'
import { useAdminCustomModels, useDeleteCustomModel, useUpdateCustomModel } from '@/lib/api-client/resources/admin-custom-models'
import { Button } from '@/components/ui/button'
import { editDeleteColumn } from '@/components/admin/shared/edit-delete-column'
import { PageTitle } from '@/components/ui/card'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { DataTable, type Column } from '@/components/ui/data-table'
import { Switch } from '@/components/ui/field'
import { CoverThumb } from '@/components/admin/shared/cover-field'
import { useRowActions } from '@/components/admin/shared/use-row-actions'
import { CustomModelFormDialog, type CustomModelRow } from './custom-model-form-dialog'

/** /admin/custom_model_mana: 风格模型, the presets 小狸猫 offers, each bound to a backend model. */
export function CustomModelManager() {
  const [editing, setEditing] = useState<CustomModelRow | 'new' | null>(null)
  const { data, isLoading, isError } = useAdminCustomModels()
  const deletePreset = useDeleteCustomModel()
  const updatePreset = useUpdateCustomModel()
  const { deleting, setDeleting, isDeleting, confirmDelete, toggleEnabled } = useRowActions<CustomModelRow>({
    remove: deletePreset.mutateAsync,
    setEnabled: (id, enabled) => updatePreset.mutateAsync({ id, body: { enabled } }),
  })

  const columns: Column<CustomModelRow>[] = [
    { header: '封面', cell: (p) => <CoverThumb url={p.cover} alt={p.name} /> },
    { header: '名称', cell: (p) => p.name, className: 'font-medium text-white', mobile: 'title' },
    { header: '后端模型', cell: (p) => p.model.name },
    { header: 'Checkpoint', cell: (p) => p.checkpoint || '-', className: 'max-w-40 truncate text-zinc-400', mobile: 'hide' },
    { header: 'LoRA', cell: (p) => p.lora || '-', className: 'max-w-40 truncate text-zinc-400', mobile: 'hide' },
    { header: '触发词', cell: (p) => <span title={p.triggerWords || undefined}>{p.triggerWords || '-'}</span>, className: 'max-w-56 truncate text-zinc-400' },
    { header: '价格（积分/张）', cell: (p) => p.price },
    { header: '启用', cell: (p) => <Switch checked={p.enabled} onChange={() => toggleEnabled(p)} label={`启用 ${p.name}`} /> },
    { header: '排序', cell: (p) => p.sort, mobile: 'hide' },
    editDeleteColumn<CustomModelRow>({ onEdit: setEditing, onDelete: setDeleting }),
  ]
  return (
    <div>
      <PageTitle actions={<Button onClick={() => setEditing('new')}>新建风格模型</Button>}>风格模型</PageTitle>
      <DataTable
        columns={columns}
        rows={data}
        rowKey={(p) => p.id}
        isLoading={isLoading}
        isError={isError}
        empty="还没有风格模型"
        rowClassName="hover:bg-zinc-900/50"
      />

      {editing && <CustomModelFormDialog preset={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSaved={() => setEditing(null)} />}
      <ConfirmDialog
        open={Boolean(deleting)}
        title="删除风格模型"
        danger
        confirmText="删除"
        loading={isDeleting}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      >
        确定删除风格模型 <span className="font-medium text-white">{deleting?.name}</span> 吗？已生成的作品会保留。
      </ConfirmDialog>
    </div>
  )
}
