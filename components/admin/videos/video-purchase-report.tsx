'use client'

import { useState } from 'react'
import { useVideoPurchases, type VideoPurchaseRow } from '@/lib/api-client/resources/videos'
import { formatCents, formatDateTime } from '@/lib/format'
import { Button } from '@/components/ui/button'
import { Card, EmptyState, PageTitle } from '@/components/ui/card'
import { DataTable, type Column } from '@/components/ui/data-table'
import { Input } from '@/components/ui/field'
import { Pagination } from '@/components/ui/pagination'

const PAGE_SIZE = 20

/** /admin/video_buy_mana: purchases per user and item, and revenue per item. */
export function VideoPurchaseReport() {
  const [page, setPage] = useState(1)
  const [user, setUser] = useState('')
  const [search, setSearch] = useState('')
  const report = useVideoPurchases({ page, pageSize: PAGE_SIZE, user: search || undefined })
  const columns: Column<VideoPurchaseRow>[] = [
    { header: '视频', cell: (r) => r.video.title, mobile: 'title' },
    { header: '用户', cell: (r) => r.user.username },
    { header: '金额', cell: (r) => `¥${formatCents(r.price)}`, className: 'tabular-nums' },
    { header: '购买时间', cell: (r) => formatDateTime(r.createdAt) },
    { header: '订单', cell: (r) => <span className="font-mono text-xs text-zinc-500">{r.orderId}</span> },
  ]
  return (
    <div className="space-y-6">
      <PageTitle>素材购买</PageTitle>
      <Card>
        <h2 className="mb-3 text-sm font-medium text-zinc-300">各素材收入</h2>
        {report.data && report.data.perItem.length === 0 ? (
          <EmptyState>暂无购买</EmptyState>
        ) : (
          <ul className="divide-y divide-zinc-800 text-sm">
            {report.data?.perItem.map((p) => (
              <li key={p.videoId} className="flex justify-between gap-3 py-2">
                <span className="truncate text-zinc-200">{p.title}</span>
                <span className="shrink-0 text-zinc-400 tabular-nums">
                  {p.purchases} 次 · ¥{formatCents(p.revenue)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <form
        className="flex gap-2"
        onSubmit={(e) => {
          e.preventDefault()
          setPage(1)
          setSearch(user.trim())
        }}
      >
        <Input value={user} onChange={(e) => setUser(e.target.value)} placeholder="用户名或用户 ID" aria-label="用户" className="max-w-xs" />
        <Button type="submit" variant="secondary">
          查询
        </Button>
      </form>
      <DataTable columns={columns} rows={report.data?.list} rowKey={(r) => r.id} isLoading={report.isLoading} isError={report.isError} empty="暂无购买记录" />
      {report.data && <Pagination page={page} pageSize={PAGE_SIZE} total={report.data.total} onChange={setPage} />}
    </div>
  )
}
