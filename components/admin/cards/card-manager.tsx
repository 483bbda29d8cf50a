'use client'

import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { useProfile, type Json } from '@/lib/api-client/hooks'
import { queryKeys } from '@/lib/api-client/query-client'
import { api } from '@/lib/api-client/request'
import { isAdmin } from '@/lib/auth/permissions'
import type { CardBatchRow } from '@/lib/cards/list-cards'
import { formatDateTime } from '@/lib/format'
import { DEFAULT_PAGE_SIZE, type Page } from '@/lib/http/pagination'
import { toast } from '@/lib/ui/toast-store'
import { attempt, useAction } from '@/lib/ui/use-action'
import { Button } from '@/components/ui/button'
import { PageTitle } from '@/components/ui/card'
import { DataTable } from '@/components/ui/data-table'
import { Input, LabelOptions, Select } from '@/components/ui/field'
import { Pagination } from '@/components/ui/pagination'
import { Td } from '@/components/ui/table'
import { AssignCardDialog } from './assign-card-dialog'
import { CARD_STATUS_LABELS, CardStatusBadge, type CardRow } from './card-status'
import { ImportCardsDialog } from './import-cards-dialog'

/** docs/PRODUCT.md §2.4: while any card on the page is PENDING, the list refreshes every 2.5 s. */
export const PENDING_REFRESH_MS = 2500

function downloadBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob)
  const a = Object.assign(document.createElement('a'), { href: url, download: name })
  a.click()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}

/** /admin/cards_mana (docs/PRODUCT.md §2.4): 卡密列表 with batch import, assign, disable, export. */
export function CardManager() {
  const [page, setPage] = useState(1)
  const [status, setStatus] = useState('')
  const [batchId, setBatchId] = useState('')
  const [keywordInput, setKeywordInput] = useState('')
  const [keyword, setKeyword] = useState('')
  const [isImporting, setIsImporting] = useState(false)
  const [assigning, setAssigning] = useState<CardRow | null>(null)
  const [isExporting, runExport] = useAction()
  const { profile } = useProfile()
  // Importing, assigning and exporting issue value or reveal keys: ADMIN only (the API refuses
  // a MANAGER too). Until the profile is known nothing of that is shown.
  const canIssue = profile ? isAdmin(profile.role) : false
  const queryClient = useQueryClient()

  const params = { page, pageSize: DEFAULT_PAGE_SIZE, status, keyword, batchId }
  const { data: batches } = useQuery({ queryKey: queryKeys.cardBatches, queryFn: () => api.get<Json<CardBatchRow>[]>('/api/admin/cards/batches') })
  const { data, isLoading } = useQuery({
    queryKey: queryKeys.adminCards(params),
    queryFn: () => api.get<Page<CardRow>>('/api/admin/cards', params),
    refetchInterval: (query) => (query.state.data?.list.some((c) => c.status === 'PENDING') ? PENDING_REFRESH_MS : false),
  })
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['admin', 'cards'] })
  const refreshBatches = () => queryClient.invalidateQueries({ queryKey: queryKeys.cardBatches })

  function search(e: FormEvent) {
    e.preventDefault()
    setPage(1)
    setKeyword(keywordInput.trim())
  }

  function toggleDisabled(card: CardRow) {
    return attempt(async () => {
      await api.post(`/api/admin/cards/${card.id}/disable`, { disabled: !card.disabledAt })
      toast.success(card.disabledAt ? '已启用' : '已停用')
      await refresh()
    })
  }

  function exportCsv() {
    return runExport(async () => downloadBlob(await api.download('/api/admin/cards/export'), `cards-${new Date().toISOString().slice(0, 10)}.csv`))
  }

  const columns = ['创建时间', '卡号', '卡密', '领取人', '使用时间', '积分', '状态', '操作']
  return (
    <div>
      <PageTitle
        actions={
          <>
            {canIssue && (
              <>
                <Button variant="secondary" loading={isExporting} onClick={exportCsv}>
                  导出可用卡密
                </Button>
                <Button onClick={() => setIsImporting(true)}>批量导入</Button>
              </>
            )}
          </>
        }
      >
        卡密列表
      </PageTitle>

      <form onSubmit={search} className="mb-4 flex flex-wrap gap-2">
        <Select aria-label="状态" value={status} onChange={(e) => (setStatus(e.target.value), setPage(1))} className="w-32">
          <LabelOptions all="全部状态" labels={CARD_STATUS_LABELS} />
        </Select>
        <Select aria-label="批次" value={batchId} onChange={(e) => (setBatchId(e.target.value), setPage(1))} className="w-60">
          <option value="">全部批次</option>
          {batches?.map((b) => (
            <option key={b.id} value={b.id}>
              #{b.id} {b.note ?? '未备注'}（{b.count} 张，{formatDateTime(b.createdAt).slice(5, 16)}）
            </option>
          ))}
        </Select>
        <Input aria-label="搜索卡号" value={keywordInput} onChange={(e) => setKeywordInput(e.target.value)} placeholder="搜索卡号" className="max-w-56" />
        <Button type="submit" variant="secondary">
          搜索
        </Button>
      </form>

      <DataTable columns={columns} isLoading={isLoading} isEmpty={data?.list.length === 0} empty="暂无卡密">
        {data?.list.map((card) => {
          const isAssignable = card.status === 'SUCCESS' && !card.usedAt && !card.disabledAt && !card.holder
          return (
            <tr key={card.id} className="hover:bg-zinc-900/50">
              <Td className="text-zinc-400">{formatDateTime(card.createdAt)}</Td>
              <Td>{card.cardNo}</Td>
              <Td className="font-mono">{card.cardKey}</Td>
              <Td>{card.claimant?.name ?? '-'}</Td>
              <Td className="text-zinc-400">{card.usedAt ? formatDateTime(card.usedAt) : '-'}</Td>
              <Td>{card.points}</Td>
              <Td>
                <div className="flex items-center gap-2">
                  <CardStatusBadge card={card} />
                  {card.failReason && <span className="max-w-56 truncate text-xs text-red-400" title={card.failReason}>{card.failReason}</span>}
                  {card.holder && !card.usedAt && <span className="text-xs text-zinc-500">{card.holder.name}</span>}
                </div>
              </Td>
              <Td>
                <div className="flex gap-1">
                  {canIssue && (
                    <Button size="sm" variant="ghost" disabled={!isAssignable} onClick={() => setAssigning(card)}>
                      分配
                    </Button>
                  )}
                  <Button size="sm" variant="ghost" disabled={card.status !== 'SUCCESS' || Boolean(card.usedAt)} onClick={() => toggleDisabled(card)}>
                    {card.disabledAt ? '启用' : '停用'}
                  </Button>
                </div>
              </Td>
            </tr>
          )
        })}
      </DataTable>
      {data && <Pagination page={page} pageSize={DEFAULT_PAGE_SIZE} total={data.total} onChange={setPage} />}

      <ImportCardsDialog
        open={canIssue && isImporting}
        onClose={() => setIsImporting(false)}
        onImported={async (newBatchId) => {
          setIsImporting(false)
          setPage(1)
          setBatchId(String(newBatchId))
          await Promise.all([refresh(), refreshBatches()])
        }}
      />
      {canIssue && assigning && (
        <AssignCardDialog
          card={assigning}
          onClose={() => setAssigning(null)}
          onAssigned={async () => {
            setAssigning(null)
            await refresh()
          }}
        />
      )}
    </div>
  )
}
