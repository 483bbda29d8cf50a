'use client'

import { useState } from 'react'
import { adminCardQueries, useExportCards, type CardListParams } from '@/lib/api-client/resources/admin-cards'
import { useProfile } from '@/lib/api-client/resources/profile'
import { usePagedList } from '@/lib/api-client/use-paged-list'
import { isAdmin } from '@/lib/auth/permissions'
import { useAction } from '@/lib/ui/use-action'
import { Button } from '@/components/ui/button'
import { PageTitle } from '@/components/ui/card'
import { Pagination } from '@/components/ui/pagination'
import { PENDING_REFRESH_MS } from '@/components/admin/shared/refresh'
import { AssignCardDialog } from './assign-card-dialog'
import { CardFilters, NO_CARD_FILTERS } from './card-filters'
import type { CardRow } from './card-status'
import { CardTable } from './card-table'
import { ImportCardsDialog } from './import-cards-dialog'

function downloadBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob)
  const a = Object.assign(document.createElement('a'), { href: url, download: name })
  a.click()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}

/** While any card on the page is PENDING, the list refreshes itself. */
const cardsQuery = (params: CardListParams) => ({
  ...adminCardQueries.list(params),
  refetchInterval: (query: { state: { data?: { list: CardRow[] } } }) =>
    query.state.data?.list.some((c) => c.status === 'PENDING') ? PENDING_REFRESH_MS : false,
})

/** /admin/cards_mana (docs/PRODUCT.md §2.4): 卡密列表 with batch import, assign, disable, export. */
export function CardManager() {
  const [isImporting, setIsImporting] = useState(false)
  const [assigning, setAssigning] = useState<CardRow | null>(null)
  const [isExporting, runExport] = useAction()
  const exportCards = useExportCards()
  const { profile } = useProfile()
  // Importing, assigning and exporting issue value or reveal keys: ADMIN only (the API refuses
  // a MANAGER too). Until the profile is known nothing of that is shown.
  const canIssue = profile ? isAdmin(profile.role) : false
  const list = usePagedList({ filters: NO_CARD_FILTERS, query: cardsQuery })

  /** The batch chosen in the filter, or every batch. */
  function exportCsv(onlyNew: boolean) {
    const batchId = list.filters.batchId ? Number(list.filters.batchId) : undefined
    const name = `cards-${batchId ?? 'all'}-${onlyNew ? 'new-' : ''}${new Date().toISOString().slice(0, 10)}.csv`
    return runExport(async () => downloadBlob(await exportCards.mutateAsync({ onlyNew, batchId }), name))
  }

  return (
    <div>
      <PageTitle
        actions={
          canIssue && (
            <>
              <Button variant="secondary" loading={isExporting} onClick={() => exportCsv(true)} title="只导出从未导出过的可用卡密；选了批次时只导出该批次">
                导出新卡密
              </Button>
              <Button variant="secondary" disabled={isExporting} onClick={() => exportCsv(false)} title="全部可用卡密，包括已导出过的；选了批次时只导出该批次">
                导出可用卡密
              </Button>
              <Button onClick={() => setIsImporting(true)}>批量导入</Button>
            </>
          )
        }
      >
        卡密列表
      </PageTitle>
      <CardFilters value={list.filters} onChange={list.setFilters} />
      <CardTable rows={list.rows} isLoading={list.isLoading} isError={list.isError} canIssue={canIssue} onAssign={setAssigning} />
      {list.rows && <Pagination {...list.pager} />}

      <ImportCardsDialog
        open={canIssue && isImporting}
        onClose={() => setIsImporting(false)}
        onImported={(batchId) => {
          setIsImporting(false)
          list.setFilters({ batchId: String(batchId) })
        }}
      />
      {canIssue && assigning && <AssignCardDialog card={assigning} onClose={() => setAssigning(null)} onAssigned={() => setAssigning(null)} />}
    </div>
  )
}
