'use client'

import { useState } from 'react'
import { useAdminModels, useDeleteModel, useUpdateModel } from '@/lib/api-client/resources/admin-models'
import { Button } from '@/components/ui/button'
import { editDeleteColumn } from '@/components/admin/shared/edit-delete-column'
import { Badge, PageTitle } from '@/components/ui/card'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { DataTable, type Column } from '@/components/ui/data-table'
import { Switch } from '@/components/ui/field'
import { PENDING_REFRESH_MS } from '@/components/admin/shared/refresh'
import { useRowActions } from '@/components/admin/shared/use-row-actions'
import { MODEL_TYPE_LABELS, backendLabel, pricesSummary, type ModelRow } from './model-labels'
import { ModelStatus } from './model-status'
import { ModelFormDialog } from './model-form-dialog'
import { ModelTestDialog } from './model-test-dialog'

/** /admin/model_mana: the generation backends, their prices per task type and their load. */
export function ModelManager() {
  const [editing, setEditing] = useState<ModelRow | 'new' | null>(null)
  const [testing, setTesting] = useState<ModelRow | null>(null)
  // While tasks wait or run, the queue figures follow them.
  const { data, isLoading, isError } = useAdminModels((query) =>
    query.state.data?.some((m) => m.queued + (m.poolQueued ?? 0) + m.running > 0) ? PENDING_REFRESH_MS : false,
  )
  const deleteModel = useDeleteModel()
  const updateModel = useUpdateModel()
  const { deleting, setDeleting, isDeleting, confirmDelete, toggleEnabled } = useRowActions<ModelRow>({
    remove: deleteModel.mutateAsync,
    setEnabled: (id, enabled) => updateModel.mutateAsync({ id, body: { enabled } }),
  })

  // Five columns, so the table (and its 操作) fits a 1280-px screen beside the side menu; a phone shows each model as a card.
  const columns: Column<ModelRow>[] = [
    {
      header: '模型 / 后端',
      mobile: 'title',
      cell: (m) => (
        <>
          <div className="flex max-w-48 flex-wrap items-center gap-1.5 max-sm:max-w-none">
            <span className="truncate font-medium text-white">{m.name}</span>
            <Badge tone={m.type === 'MID_JOURNEY' ? 'amber' : 'brand'}>{MODEL_TYPE_LABELS[m.type]}</Badge>
          </div>
          <div className="mt-0.5 text-xs text-zinc-400">{backendLabel(m.backend)}</div>
          {m.endpoint && (
            <div className="max-w-48 truncate text-xs text-zinc-500" title={m.endpoint}>
              {m.endpoint}
            </div>
          )}
          {m.checkpoint && (
            <div className="max-w-48 truncate text-xs text-zinc-500" title={m.checkpoint}>
              {m.checkpoint}
            </div>
          )}
        </>
      ),
    },
    {
      header: '价格',
      cell: (m) => <div className="w-40 whitespace-normal text-xs leading-relaxed">{pricesSummary(m) ?? <span className="text-zinc-500">未定价</span>}</div>,
    },
    { header: '状态 / 负载', cell: (m) => <ModelStatus model={m} /> },
    {
      header: '启用 / 排序',
      cell: (m) => (
        <div className="flex flex-col items-end gap-1 sm:items-start">
          <Switch checked={m.enabled} onChange={() => toggleEnabled(m)} label={`启用 ${m.name}`} />
          <div className="text-xs text-zinc-500">排序 {m.sort}</div>
        </div>
      ),
    },
    editDeleteColumn<ModelRow>({
      onEdit: setEditing,
      onDelete: setDeleting,
      extra: (m) => (
        <Button size="sm" variant="ghost" onClick={() => setTesting(m)}>
          测试连接
        </Button>
      ),
    }),
  ]
  return (
    <div>
      <PageTitle actions={<Button onClick={() => setEditing('new')}>新建模型</Button>}>模型管理</PageTitle>
      <DataTable
        columns={columns}
        rows={data}
        rowKey={(m) => m.id}
        isLoading={isLoading}
        isError={isError}
        empty="还没有模型，点击“新建模型”接入生成后端"
        rowClassName="align-top hover:bg-zinc-900/50"
      />

      {editing && <ModelFormDialog model={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSaved={() => setEditing(null)} />}
      {testing && <ModelTestDialog model={testing} onClose={() => setTesting(null)} />}
      <ConfirmDialog
        open={Boolean(deleting)}
        title="删除模型"
        danger
        confirmText="删除"
        loading={isDeleting}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      >
        确定删除模型 <span className="font-medium text-white">{deleting?.name}</span> 吗？已有任务记录的模型不能删除，可以停用。
      </ConfirmDialog>
    </div>
  )
}
