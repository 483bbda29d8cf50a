'use client'

import { useState } from 'react'
import {
  useAdminChatModels,
  useChatUsage,
  useDeleteChatModel,
  useTestChatModel,
  useUpdateChatModel,
  type AdminChatModelRow,
  type ChatUsageRow,
} from '@/lib/api-client/resources/admin-chat-models'
import { useProfile } from '@/lib/api-client/resources/profile'
import { isAdmin } from '@/lib/auth/permissions'
import { toast } from '@/lib/ui/toast-store'
import { cn } from '@/lib/ui/cn'
import { Button } from '@/components/ui/button'
import { editDeleteColumn } from '@/components/admin/shared/edit-delete-column'
import { useRowActions } from '@/components/admin/shared/use-row-actions'
import { Badge, Card, PageTitle } from '@/components/ui/card'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { DataTable, type Column } from '@/components/ui/data-table'
import { Select, Switch } from '@/components/ui/field'
import { ChatModelFormDialog } from './chat-model-form-dialog'

/** /admin/chat_model_mana: the OpenAI-compatible models of /ai_chat, 测试连接, and what they are used for. */
export function ChatModelManager() {
  const [editing, setEditing] = useState<AdminChatModelRow | 'new' | null>(null)
  const { data, isLoading, isError } = useAdminChatModels()
  const { profile } = useProfile()
  const canEdit = profile ? isAdmin(profile.role) : false
  const remove = useDeleteChatModel()
  const update = useUpdateChatModel()
  const test = useTestChatModel()
  const [testing, setTesting] = useState<string | null>(null)
  const { deleting, setDeleting, isDeleting, confirmDelete, toggleEnabled } = useRowActions<AdminChatModelRow>({
    remove: remove.mutateAsync,
    setEnabled: (id, enabled) => update.mutateAsync({ id: String(id), body: { enabled } }),
  })

  async function runTest(row: AdminChatModelRow) {
    setTesting(row.id)
    try {
      const result = await test.mutateAsync(row.id)
      if (result.ok) toast.success(result.message)
      else toast.error(result.message)
    } catch {
      // shown by the request layer
    } finally {
      setTesting(null)
    }
  }

  const columns: Column<AdminChatModelRow>[] = [
    {
      header: '名称',
      cell: (m) => (
        <span className="inline-flex items-center gap-1.5">
          {m.name}
          {m.vision && <Badge tone="brand">识图</Badge>}
        </span>
      ),
      className: 'font-medium text-white',
      mobile: 'title',
    },
    {
      header: '模型 / 接口地址',
      cell: (m) => (
        <div className="max-w-64">
          <code className="text-xs text-zinc-200">{m.model}</code>
          <div className="truncate text-xs text-zinc-500" title={m.endpoint}>
            {m.endpoint}
          </div>
        </div>
      ),
    },
    { header: '密钥', cell: (m) => (m.secret ? <span className="text-zinc-400">{m.secret}</span> : <Badge>未设置</Badge>), mobile: 'hide' },
    { header: '每条积分', cell: (m) => m.pricePerMessage },
    { header: '上下文', cell: (m) => `${m.contextMessages} 条`, mobile: 'hide' },
    { header: '排序', cell: (m) => m.sort, mobile: 'hide' },
    {
      header: '启用',
      cell: (m) => (canEdit ? <Switch checked={m.enabled} onChange={() => toggleEnabled(m)} label={`启用 ${m.name}`} /> : m.enabled ? '启用' : '停用'),
    },
  ]
  if (canEdit)
    columns.push(
      editDeleteColumn<AdminChatModelRow>({
        onEdit: setEditing,
        onDelete: setDeleting,
        extra: (m) => (
          <Button size="sm" variant="ghost" loading={testing === m.id} onClick={() => runTest(m)}>
            测试连接
          </Button>
        ),
      }),
    )
  return (
    <div>
      <PageTitle actions={canEdit && <Button onClick={() => setEditing('new')}>新建对话模型</Button>}>对话模型</PageTitle>
      <p className="mb-4 text-sm text-zinc-400">
        AI 对话（/ai_chat）使用的 OpenAI 兼容模型：OpenAI、DeepSeek、通义千问（DashScope 兼容模式）、豆包（火山方舟）或 new-api / one-api 中转。
      </p>
      <DataTable
        columns={columns}
        rows={data}
        rowKey={(m) => m.id}
        isLoading={isLoading}
        isError={isError}
        empty="还没有对话模型"
        rowClassName="hover:bg-zinc-900/50"
      />
      <ChatUsage />
      {editing && <ChatModelFormDialog model={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={Boolean(deleting)}
        title="删除对话模型"
        danger
        confirmText="删除"
        loading={isDeleting}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      >
        确定删除对话模型 <span className="font-medium text-white">{deleting?.name}</span> 吗？已有对话使用的模型只能停用。
      </ConfirmDialog>
    </div>
  )
}

const usageColumns = (first: string): Column<ChatUsageRow>[] => [
  { header: first, cell: (r) => r.name, className: 'font-medium text-white', mobile: 'title' },
  { header: '回答数', cell: (r) => r.messages },
  { header: '消耗积分', cell: (r) => r.points },
]

function ChatUsage() {
  const [days, setDays] = useState(7)
  const { data, isLoading, isError, isPlaceholderData } = useChatUsage(days)
  return (
    <section className="mt-8">
      <div className="mb-3 flex items-center justify-between gap-2">
        <h2 className="text-lg font-semibold text-white">使用情况</h2>
        <Select aria-label="统计范围" value={String(days)} onChange={(e) => setDays(Number(e.target.value))} className="w-32">
          <option value="1">最近 1 天</option>
          <option value="7">最近 7 天</option>
          <option value="30">最近 30 天</option>
        </Select>
      </div>
      <div aria-busy={isPlaceholderData} className={cn('grid gap-4 transition-opacity lg:grid-cols-2', isPlaceholderData && 'opacity-50')}>
        <Card>
          <h3 className="mb-2 text-sm text-zinc-400">按模型</h3>
          <DataTable columns={usageColumns('模型')} rows={data?.models} rowKey={(r) => r.name} isLoading={isLoading} isError={isError} empty="暂无对话" />
        </Card>
        <Card>
          <h3 className="mb-2 text-sm text-zinc-400">按用户（前 50）</h3>
          <DataTable columns={usageColumns('用户')} rows={data?.users} rowKey={(r) => r.name} isLoading={isLoading} isError={isError} empty="暂无对话" />
        </Card>
      </div>
    </section>
  )
}
