'use client'

import { useState, type FormEvent } from 'react'
import { useCardBatches } from '@/lib/api-client/resources/admin-cards'
import { formatDateTime } from '@/lib/format'
import { Button } from '@/components/ui/button'
import { Input, LabelOptions, Select } from '@/components/ui/field'
import { CARD_STATUS_LABELS } from './card-status'

export type CardFilterValues = { status: string; batchId: string; keyword: string }
export const NO_CARD_FILTERS: CardFilterValues = { status: '', batchId: '', keyword: '' }

/** Status and batch apply at once; the card number search on 搜索. */
export function CardFilters({ value, onChange }: { value: CardFilterValues; onChange: (patch: Partial<CardFilterValues>) => void }) {
  const [keywordInput, setKeywordInput] = useState(value.keyword)
  const { data: batches } = useCardBatches()

  function search(e: FormEvent) {
    e.preventDefault()
    onChange({ keyword: keywordInput.trim() })
  }

  return (
    <form onSubmit={search} className="mb-4 flex flex-wrap gap-2">
      <Select aria-label="状态" value={value.status} onChange={(e) => onChange({ status: e.target.value })} className="w-32">
        <LabelOptions all="全部状态" labels={CARD_STATUS_LABELS} />
      </Select>
      <Select aria-label="批次" value={value.batchId} onChange={(e) => onChange({ batchId: e.target.value })} className="w-60">
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
  )
}
