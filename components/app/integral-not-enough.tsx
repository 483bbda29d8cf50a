'use client'

import Link from 'next/link'
import { useEffect, useState } from 'react'
import { INTEGRAL_NOT_ENOUGH, on, type IntegralNotEnoughDetail } from '@/lib/api-client/events'
import { Button } from '@/components/ui/button'
import { Dialog } from '@/components/ui/dialog'

/** docs/PRODUCT.md §8: 积分不足 raises an event instead of a toast; this dialog answers it. */
export function IntegralNotEnoughDialog() {
  const [detail, setDetail] = useState<IntegralNotEnoughDetail | null>(null)
  useEffect(() => on<IntegralNotEnoughDetail>(INTEGRAL_NOT_ENOUGH, setDetail), [])
  const close = () => setDetail(null)
  return (
    <Dialog
      open={Boolean(detail)}
      title="积分不足"
      description={detail?.errMessage}
      onClose={close}
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            知道了
          </Button>
          <Link href="/my_cards" onClick={close}>
            <Button>兑换卡密</Button>
          </Link>
        </>
      }
    >
      <p className="text-sm text-zinc-500">可以兑换卡密获得积分，或在“我的账户”查看积分明细。</p>
    </Dialog>
  )
}
