import type { ReactNode } from 'react'
import { formatDateTime } from '@/lib/format'
import { LEDGER_KIND_LABELS } from '@/lib/ledger/labels'
import { cn } from '@/lib/ui/cn'
import { DataTable, type Column } from '@/components/ui/data-table'
import { taskTypeLabel } from '@/components/create/task-labels'
import type { TaskDetail } from './task-status'

/** How parameter names read (lib/generation/sd-params.ts, lib/mj/params.ts). */
const PARAM_LABELS: Record<string, string> = {
  prompt: '提示词',
  finalPrompt: '提交的提示词',
  promptEn: '英文提示词',
  negativePrompt: '反向提示词',
  mjAction: 'MJ 操作',
  customId: '按钮',
  width: '宽度',
  height: '高度',
  aspectRatio: '画面比例',
  dimensions: '混图比例',
  version: 'MJ 版本',
  niji: 'Niji 版本',
  stylize: '风格化',
  chaos: '混乱度',
  quality: '画质',
  speed: '速度模式',
  rawParams: '额外参数',
  steps: '采样步数',
  cfgScale: '提示词相关性（CFG）',
  seed: '随机种子',
  sampler: '采样器',
  count: '生成数量',
  denoisingStrength: '重绘幅度',
  initImageId: '参考图',
  maskImageId: '蒙版',
  controlImageId: '线稿',
  referenceImageIds: '参考图 ID',
  referenceImageUrls: '参考图',
  describedPrompts: '识图结果',
  lineStyle: '线稿风格',
  controlWeight: '控制权重',
  customModelId: '风格模型 ID',
  sourceTaskId: '原作品任务 ID',
  parentTaskId: '上一步任务 ID',
  parentUpstreamId: '上一步的上游任务 ID',
  baseType: '计费类型',
}

/** Values that are codes, as they read. */
const VALUE_LABELS: Record<string, Record<string, string>> = {
  mjAction: { IMAGINE: '生成', BLEND: '混图', DESCRIBE: '识图', ACTION: '按钮操作' },
  dimensions: { PORTRAIT: '竖图 2:3', SQUARE: '方图 1:1', LANDSCAPE: '横图 3:2' },
  speed: { fast: '快速', relax: '慢速', turbo: '极速' },
  lineStyle: { standard: '写实线稿', anime: '动漫线稿' },
}

function paramValue(key: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '-'
  if (key === 'baseType' && typeof value === 'string') return taskTypeLabel(value)
  if (key === 'seed' && value === -1) return '随机（-1）'
  if (typeof value === 'string') return VALUE_LABELS[key]?.[value] ?? value
  if (typeof value === 'boolean') return value ? '是' : '否'
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.length ? value.join('\n') : '-'
  return typeof value === 'object' ? JSON.stringify(value) : String(value)
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-2">
      <h3 className="text-sm font-medium text-zinc-300">{title}</h3>
      {children}
    </section>
  )
}

/** Label/value pairs in two columns on wide screens. */
export function Facts({ items }: { items: [string, ReactNode][] }) {
  return (
    <dl className="grid gap-x-6 gap-y-2 rounded-xl bg-zinc-950/40 p-4 text-sm ring-1 ring-zinc-800 sm:grid-cols-2">
      {items.map(([label, value]) => (
        <div key={label} className="flex min-w-0 gap-3">
          <dt className="w-24 shrink-0 text-zinc-500">{label}</dt>
          <dd className="min-w-0 break-all text-zinc-200">{value}</dd>
        </div>
      ))}
    </dl>
  )
}

/** The task's parameters as readable key/value rows. */
export function ParamsList({ params }: { params: Record<string, unknown> }) {
  // Known parameters in a reading order (prompt first), anything else after them.
  const order = Object.keys(PARAM_LABELS)
  const rank = (key: string) => (order.includes(key) ? order.indexOf(key) : order.length)
  const entries = Object.entries(params).sort(([a], [b]) => rank(a) - rank(b))
  if (!entries.length) return <p className="text-sm text-zinc-500">无</p>
  return (
    <dl className="divide-y divide-zinc-800 rounded-xl bg-zinc-950/40 text-sm ring-1 ring-zinc-800">
      {entries.map(([key, value]) => (
        <div key={key} className="flex gap-3 px-4 py-2">
          <dt className="w-36 shrink-0 text-zinc-500" title={key}>
            {PARAM_LABELS[key] ?? key}
          </dt>
          <dd className="min-w-0 whitespace-pre-wrap break-all text-zinc-200">{paramValue(key, value)}</dd>
        </div>
      ))}
    </dl>
  )
}

/** The charge and the refund this task caused (points). */
export function LedgerRows({ rows }: { rows: TaskDetail['ledger'] }) {
  if (!rows.length) return <p className="text-sm text-zinc-500">没有积分流水</p>
  const columns: Column<TaskDetail['ledger'][number]>[] = [
    { header: '时间', cell: (r) => formatDateTime(r.createdAt), className: 'text-zinc-400' },
    { header: '类型', cell: (r) => LEDGER_KIND_LABELS[r.kind] ?? r.kind },
    {
      header: '积分变动',
      cell: (r) => <span className={cn('font-medium', r.amount < 0 ? 'text-red-400' : 'text-emerald-400')}>{r.amount > 0 ? `+${r.amount}` : r.amount}</span>,
    },
    { header: '变动后积分', cell: (r) => r.balanceAfter },
    { header: '流水标识', cell: (r) => r.reference, className: 'font-mono text-xs text-zinc-500 max-sm:break-all' },
  ]
  return <DataTable columns={columns} rows={rows} rowKey={(r) => r.id} isLoading={false} empty={null} />
}

/** Raw JSON (backend answers), pretty-printed and scrollable. */
export function JsonBlock({ value }: { value: unknown }) {
  const isEmpty = value === null || value === undefined || (Array.isArray(value) && value.length === 0)
  if (isEmpty) return <p className="text-sm text-zinc-500">无</p>
  return (
    <pre className="max-h-72 overflow-auto rounded-xl bg-zinc-950 p-3 font-mono text-xs leading-relaxed text-zinc-300 ring-1 ring-zinc-800">
      {JSON.stringify(value, null, 2)}
    </pre>
  )
}
