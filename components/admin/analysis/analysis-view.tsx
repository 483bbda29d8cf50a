'use client'

import { useState } from 'react'
import { useAnalysis, type AnalysisDay, type AnalysisRange } from '@/lib/api-client/resources/admin-analysis'
import { formatCents } from '@/lib/format'
import { cn } from '@/lib/ui/cn'
import { Button } from '@/components/ui/button'
import { Card, EmptyState, PageTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/field'
import { Loading } from '@/components/ui/spinner'
import { TASK_STATUS_LABELS, TASK_TYPE_LABELS } from '@/components/create/task-labels'
import { CHANNEL_LABELS, ORDER_TYPE_LABELS } from '@/components/payments/labels'
import { ChartCard, Lines, StackedBars, type Series } from './analysis-charts'
import { MAX_RANGE_DAYS, lastDays, rangeLength } from './analysis-range'

const PRESETS = [7, 30, 90] as const

type DayPick = (day: AnalysisDay) => Record<string, number>

/** One row per day ({ label, [key]: value }) and the series that occur in the range, for a breakdown of the day. */
function breakdown(
  days: AnalysisDay[],
  pick: DayPick,
  labels: Record<string, string>,
  scale = 1,
): { data: Record<string, number | string>[]; series: Series[] } {
  const keys = [...new Set(days.flatMap((d) => Object.keys(pick(d))))]
  return {
    data: days.map((d) => ({ label: d.date.slice(5), ...Object.fromEntries(keys.map((k) => [k, (pick(d)[k] ?? 0) / scale])) })),
    series: keys.map((k) => ({ key: k, label: labels[k] ?? k })),
  }
}

const sum = (days: AnalysisDay[], of: (d: AnalysisDay) => number) => days.reduce((n, d) => n + of(d), 0)
const yuan = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(2))

/** /admin/analysis_mana: revenue by type and channel, new users, tasks by type and status, points issued vs spent, per day over a range. */
export function AnalysisView() {
  const [range, setRange] = useState<AnalysisRange>(() => lastDays(30))
  const [draft, setDraft] = useState(range)
  const length = rangeLength(draft)
  const draftError = length === 0 ? '开始日期不能晚于结束日期' : length > MAX_RANGE_DAYS ? `最多查询 ${MAX_RANGE_DAYS} 天` : null
  const { data: days, isLoading, isError, isPlaceholderData } = useAnalysis(range)

  const pickPreset = (n: number) => {
    const next = lastDays(n)
    setDraft(next)
    setRange(next)
  }

  return (
    <div>
      <PageTitle>数据分析</PageTitle>
      <form
        className="mb-5 flex flex-wrap items-center gap-2"
        onSubmit={(e) => {
          e.preventDefault()
          if (!draftError) setRange(draft)
        }}
      >
        {PRESETS.map((n) => (
          <Button key={n} size="sm" variant={rangeLength(range) === n && range.to === lastDays(1).to ? 'primary' : 'secondary'} onClick={() => pickPreset(n)}>
            近 {n} 天
          </Button>
        ))}
        <div className="flex items-center gap-1.5">
          <Input type="date" aria-label="开始日期" value={draft.from} onChange={(e) => setDraft((d) => ({ ...d, from: e.target.value }))} className="w-38" />
          <span className="text-sm text-zinc-500">至</span>
          <Input type="date" aria-label="结束日期" value={draft.to} onChange={(e) => setDraft((d) => ({ ...d, to: e.target.value }))} className="w-38" />
        </div>
        <Button type="submit" size="sm" variant="secondary" disabled={Boolean(draftError)}>
          查询
        </Button>
        {draftError && <span className="text-xs text-red-400">{draftError}</span>}
      </form>

      {isLoading ? (
        <Loading />
      ) : !days ? (
        <Card>
          <EmptyState>{isError ? '加载失败，请稍后刷新重试' : '暂无数据'}</EmptyState>
        </Card>
      ) : (
        // The last range's figures stay, dimmed, until the new range's arrive.
        <div aria-busy={isPlaceholderData} className={cn('transition-opacity', isPlaceholderData && 'opacity-50')}>
          <AnalysisCharts days={days} />
        </div>
      )}
    </div>
  )
}

function AnalysisCharts({ days }: { days: AnalysisDay[] }) {
  const revenue = sum(days, (d) => d.revenue)
  const byType = breakdown(days, (d) => d.revenueByType, ORDER_TYPE_LABELS, 100)
  const byChannel = breakdown(days, (d) => d.revenueByChannel, CHANNEL_LABELS, 100)
  const tasksByType = breakdown(days, (d) => d.tasksByType, TASK_TYPE_LABELS)
  const tasksByStatus = breakdown(days, (d) => d.tasksByStatus, TASK_STATUS_LABELS)
  const users = days.map((d) => ({ label: d.date.slice(5), newUsers: d.newUsers }))
  const points = days.map((d) => ({ label: d.date.slice(5), pointsIssued: d.pointsIssued, pointsSpent: d.pointsSpent }))

  return (
    <div className="space-y-4">
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        {[
          ['收入（元）', formatCents(revenue), 'analysis-revenue'],
          ['新增用户', String(sum(days, (d) => d.newUsers)), 'analysis-new-users'],
          ['发放积分', String(sum(days, (d) => d.pointsIssued)), 'analysis-points-issued'],
          ['消耗积分', String(sum(days, (d) => d.pointsSpent)), 'analysis-points-spent'],
        ].map(([label, value, id]) => (
          <Card key={id}>
            <div className="text-sm text-zinc-400">{label}</div>
            <div className="mt-1 text-2xl font-semibold text-white" data-testid={id}>
              {value}
            </div>
          </Card>
        ))}
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <ChartCard title="每日收入（按类型）" total={`¥${formatCents(revenue)}`}>
          <StackedBars data={byType.data} series={byType.series} format={yuan} />
        </ChartCard>
        <ChartCard title="每日收入（按渠道）" total={`¥${formatCents(revenue)}`}>
          <StackedBars data={byChannel.data} series={byChannel.series} format={yuan} />
        </ChartCard>
        <ChartCard title="每日新增用户">
          <StackedBars data={users} series={[{ key: 'newUsers', label: '新增用户' }]} />
        </ChartCard>
        <ChartCard title="积分发放与消耗">
          <Lines
            data={points}
            series={[
              { key: 'pointsIssued', label: '发放' },
              { key: 'pointsSpent', label: '消耗' },
            ]}
          />
        </ChartCard>
        <ChartCard title="每日任务（按类型）">
          <StackedBars data={tasksByType.data} series={tasksByType.series} />
        </ChartCard>
        <ChartCard title="每日任务（按状态）">
          <StackedBars data={tasksByStatus.data} series={tasksByStatus.series} />
        </ChartCard>
      </div>
    </div>
  )
}
