'use client'

import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { queryKeys } from '@/lib/api-client/query-client'
import { api } from '@/lib/api-client/request'
import { formatDateTime } from '@/lib/format'
import { Button } from '@/components/ui/button'
import { Badge, PageTitle } from '@/components/ui/card'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { DataTable } from '@/components/ui/data-table'
import { Switch } from '@/components/ui/field'
import { Td } from '@/components/ui/table'
import { PENDING_REFRESH_MS } from '@/components/admin/cards/card-manager'
import { useRowActions } from '@/components/admin/shared/use-row-actions'
import { MODEL_TYPE_LABELS, backendLabel, pricesSummary, type ModelRow } from './model-labels'
import { ModelFormDialog } from './model-form-dialog'
import { ModelTestDialog } from './model-test-dialog'

/** /admin/model_mana: the generation backends, their prices per task type and their load. */
export function ModelManager() {
  const [editing, setEditing] = useState<ModelRow | 'new' | null>(null)
  const [testing, setTesting] = useState<ModelRow | null>(null)
  const queryClient = useQueryClient()

  const { data, isLoading } = useQuery({
    queryKey: queryKeys.adminModels,
    queryFn: () => api.get<ModelRow[]>('/api/admin/models'),
    // While tasks wait or run, the queue figures follow them.
    refetchInterval: (query) => (query.state.data?.some((m) => m.queued + m.running > 0) ? PENDING_REFRESH_MS : false),
  })
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.adminModels })
  const { deleting, setDeleting, isDeleting, confirmDelete, toggleEnabled } = useRowActions<ModelRow>('/api/admin/models', refresh)

  const columns = ['名称 / Checkpoint', '后端 / 接口地址', '价格（积分/张）', '并发 / 资源池', '健康', '排队/运行', '近 1 小时失败率', '启用', '排序', '操作']
  return (
    <div>
      <PageTitle actions={<Button onClick={() => setEditing('new')}>新建模型</Button>}>模型管理</PageTitle>
      <DataTable columns={columns} isLoading={isLoading} isEmpty={data?.length === 0} empty="还没有模型，点击“新建模型”接入生成后端">
        {data?.map((m) => (
          <tr key={m.id} className="hover:bg-zinc-900/50">
            <Td>
              <div className="flex items-center gap-2">
                <span className="font-medium text-white">{m.name}</span>
                <Badge tone={m.type === 'MID_JOURNEY' ? 'amber' : 'brand'}>{MODEL_TYPE_LABELS[m.type]}</Badge>
              </div>
              {m.checkpoint && (
                <div className="mt-0.5 max-w-48 truncate text-xs text-zinc-500" title={m.checkpoint}>
                  {m.checkpoint}
                </div>
              )}
            </Td>
            <Td>
              <div>{backendLabel(m.backend)}</div>
              {m.endpoint && (
                <div className="mt-0.5 max-w-48 truncate text-xs text-zinc-500" title={m.endpoint}>
                  {m.endpoint}
                </div>
              )}
            </Td>
            <Td className="max-w-52 whitespace-normal text-xs leading-relaxed">{pricesSummary(m) ?? <span className="text-zinc-500">未定价</span>}</Td>
            <Td>
              <div>{m.concurrency}</div>
              {m.pool && <div className="mt-0.5 text-xs text-zinc-500">池：{m.pool}</div>}
            </Td>
            <Td>
              <Badge tone={m.healthy ? 'green' : 'red'}>{m.healthy ? '正常' : '异常'}</Badge>
              {m.healthMessage && (
                <div className="mt-0.5 max-w-40 truncate text-xs text-red-300" title={m.healthMessage}>
                  {m.healthMessage}
                </div>
              )}
              {m.healthCheckedAt && <div className="mt-0.5 text-[10px] text-zinc-600">{formatDateTime(m.healthCheckedAt).slice(11)}</div>}
            </Td>
            <Td>
              <span className={m.queued ? 'text-amber-300' : 'text-zinc-400'}>{m.queued}</span>
              <span className="text-zinc-600"> / </span>
              <span className={m.running ? 'text-emerald-400' : 'text-zinc-400'}>{m.running}</span>
            </Td>
            <Td className={m.recentFailures ? 'text-red-300' : 'text-zinc-400'}>
              {m.recentTasks ? `${Math.round((m.recentFailures / m.recentTasks) * 100)}%（${m.recentFailures}/${m.recentTasks}）` : '-'}
            </Td>
            <Td>
              <Switch checked={m.enabled} onChange={() => toggleEnabled(m)} label={`启用 ${m.name}`} />
            </Td>
            <Td>{m.sort}</Td>
            <Td>
              <div className="flex gap-1">
                <Button size="sm" variant="ghost" onClick={() => setEditing(m)}>
                  编辑
                </Button>
                <Button size="sm" variant="ghost" onClick={() => setTesting(m)}>
                  测试连接
                </Button>
                <Button size="sm" variant="ghost" className="text-red-400" onClick={() => setDeleting(m)}>
                  删除
                </Button>
              </div>
            </Td>
          </tr>
        ))}
      </DataTable>

      {editing && (
        <ModelFormDialog
          model={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={async () => {
            setEditing(null)
            await refresh()
          }}
        />
      )}
      {testing && <ModelTestDialog model={testing} onClose={() => setTesting(null)} />}
      <ConfirmDialog open={Boolean(deleting)} title="删除模型" danger confirmText="删除" loading={isDeleting} onConfirm={confirmDelete} onClose={() => setDeleting(null)}>
        确定删除模型 <span className="font-medium text-white">{deleting?.name}</span> 吗？已有任务记录的模型不能删除，可以停用。
      </ConfirmDialog>
    </div>
  )
}
