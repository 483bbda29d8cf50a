'use client'

import type { ReactNode } from 'react'
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import { Card } from '@/components/ui/card'

/** Series colours that read on the dark background. */
const PALETTE = ['#a78bfa', '#f472b6', '#34d399', '#fbbf24', '#60a5fa', '#f87171', '#2dd4bf', '#c084fc', '#fb923c']

export type Series = { key: string; label: string }

const axis = { stroke: '#71717a', fontSize: 12, tickLine: false } as const
const tooltipStyle = {
  contentStyle: { background: '#18181b', border: '1px solid #3f3f46', borderRadius: 8, fontSize: 12 },
  labelStyle: { color: '#e4e4e7' },
  itemStyle: { padding: 0 },
  cursor: { fill: 'rgba(161,161,170,0.08)' },
}

export function ChartCard({ title, total, children, testId }: { title: string; total?: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <Card className="min-w-0">
      <div className="mb-3 flex items-baseline justify-between gap-3" data-testid={testId}>
        <h2 className="text-base font-medium text-white">{title}</h2>
        {total !== undefined && <span className="text-sm text-zinc-400">{total}</span>}
      </div>
      <div className="h-64 sm:h-72">{children}</div>
    </Card>
  )
}

/** Bars per day, one stacked segment per series. */
export function StackedBars({
  data,
  series,
  format = (v) => String(v),
}: {
  data: Record<string, number | string>[]
  series: Series[]
  format?: (value: number) => string
}) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={data} margin={{ top: 4, right: 8, left: 0, bottom: 0 }}>
        <CartesianGrid stroke="#27272a" vertical={false} />
        <XAxis dataKey="label" {...axis} />
        <YAxis {...axis} width={56} tickFormatter={(v: number) => format(v)} allowDecimals={false} />
        <Tooltip {...tooltipStyle} formatter={(v) => format(Number(v))} />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        {series.map((s, i) => (
          <Bar key={s.key} dataKey={s.key} name={s.label} stackId="a" fill={PALETTE[i % PALETTE.length]} maxBarSize={36} isAnimationActive={false} />
        ))}
      </BarChart>
    </ResponsiveContainer>
  )
}

/** Lines per day, one per series. */
export function Lines({ data, series }: { data: Record<string, number | string>[]; series: Series[] }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <LineChart data={data} margin={{ top: 4, right: 8, left: 0, bottom: 0 }}>
        <CartesianGrid stroke="#27272a" vertical={false} />
        <XAxis dataKey="label" {...axis} />
        <YAxis {...axis} width={56} allowDecimals={false} />
        <Tooltip {...tooltipStyle} cursor={{ stroke: '#52525b' }} />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        {series.map((s, i) => (
          <Line key={s.key} dataKey={s.key} name={s.label} stroke={PALETTE[i % PALETTE.length]} strokeWidth={2} dot={false} isAnimationActive={false} />
        ))}
      </LineChart>
    </ResponsiveContainer>
  )
}
