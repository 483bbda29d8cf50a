'use client'

import { useState } from 'react'
import { useAdminOrder, useMarkOrderPaid, useRefundOrder } from '@/lib/api-client/resources/admin-orders'
import { formatCents, formatDateTime } from '@/lib/format'
import { toast } from '@/lib/ui/toast-store'
import { useAction } from '@/lib/ui/use-action'
import { Button } from '@/components/ui/button'
import { Badge } from '@/components/ui/card'
import { Dialog } from '@/components/ui/dialog'
import { DataTable } from '@/components/ui/data-table'
import { Field, Textarea } from '@/components/ui/field'
import { FormDialog } from '@/components/ui/form-dialog'
import { Loading } from '@/components/ui/spinner'
import { Facts, JsonBlock, Section } from '@/components/admin/tasks/task-detail-sections'
import { ORDER_TYPE_LABELS } from '@/components/payments/labels'
import { OrderStatusBadge } from '@/components/payments/order-status-badge'
import { channelText } from './order-table'

type Act = 'mark-paid' | 'refund'

function ReasonDialog({ act, orderId, onClose }: { act: Act; orderId: string; onClose: () => void }) {
  const [reason, setReason] = useState('')
  const markPaid = useMarkOrderPaid()
  const refund = useRefundOrder()
  const [busy, run] = useAction()
  const isRefund = act === 'refund'

  async function confirm() {
    if (!reason.trim()) return toast.error('请填写原因')
    let refunded = true
    const ok = await run(async () => {
      if (!isRefund) return markPaid.mutateAsync({ id: orderId, reason: reason.trim() })
      refunded = !!(await refund.mutateAsync({ id: orderId, reason: reason.trim() })).refundedAt
    })
    if (ok) {
      if (!isRefund) toast.success('已标记为已支付')
      else if (refunded) toast.success('已退款')
      else toast.info(REFUND_AWAITED)
      onClose()
    }
  }

  return (
    <FormDialog
      title={isRefund ? '退款' : '标记已支付'}
      description={isRefund ? '全额退回用户的支付，并从用户账户扣回所得（已用掉时无法退款）。' : '确认已在支付平台收到这笔款项后再标记，用户将获得所购内容。'}
      onClose={onClose}
      onConfirm={confirm}
      busy={busy}
      danger={isRefund}
      submitLabel={isRefund ? '确认退款' : '确认标记'}
    >
      <Field label="原因" htmlFor="order-act-reason" help="记入操作日志">
        <Textarea id="order-act-reason" rows={3} value={reason} onChange={(e) => setReason(e.target.value)} placeholder="例如：用户提供了支付凭证" />
      </Field>
    </FormDialog>
  )
}

const REFUND_AWAITED = '退款已提交，支付平台尚未确认结果，系统会自动再次确认'

/** A refund whose answer is awaited: the same refund asked about again (its number and reason are the order's). */
function AskRefundAgain({ orderId, reason }: { orderId: string; reason: string }) {
  const refund = useRefundOrder()
  const [busy, run] = useAction()
  async function ask() {
    let refunded = false
    const ok = await run(async () => {
      refunded = !!(await refund.mutateAsync({ id: orderId, reason })).refundedAt
    })
    if (ok && refunded) toast.success('已退款')
    else if (ok) toast.info(REFUND_AWAITED)
  }
  return (
    <Button variant="secondary" onClick={ask} disabled={busy}>
      {busy ? '确认中…' : '再次确认退款结果'}
    </Button>
  )
}

/** 订单详情: the provider's transaction id, what was granted and every notification received; ADMIN may mark paid or refund. */
export function OrderDetailDialog({ orderId, canWrite, onClose }: { orderId: string; canWrite: boolean; onClose: () => void }) {
  const { data: o, isLoading, isError } = useAdminOrder(orderId)
  const [act, setAct] = useState<Act | null>(null)

  return (
    <>
      <Dialog
        open={!act}
        title="订单详情"
        onClose={onClose}
        className="sm:max-w-3xl!"
        footer={
          <>
            {canWrite && o?.status === 'PENDING' && <Button onClick={() => setAct('mark-paid')}>标记已支付</Button>}
            {canWrite && o?.status === 'SUCCESS' && !o.refundedAt && o.refundReason && <AskRefundAgain orderId={o.id} reason={o.refundReason} />}
            {canWrite && o?.status === 'SUCCESS' && !o.refundedAt && !o.refundReason && o.channel !== 'BALANCE' && (
              <Button variant="danger" onClick={() => setAct('refund')}>
                退款
              </Button>
            )}
            <Button variant="secondary" onClick={onClose}>
              关闭
            </Button>
          </>
        }
      >
        {isLoading ? (
          <Loading />
        ) : !o ? (
          <p className="py-8 text-center text-sm text-zinc-500">{isError ? '加载失败，请稍后重试' : '订单不存在'}</p>
        ) : (
          <div className="space-y-5" data-testid="admin-order-detail">
            {o.flag && (
              <p className="rounded-lg bg-red-500/10 px-3 py-2 text-sm text-red-300 ring-1 ring-red-500/30">
                <Badge tone="red">异常</Badge> {o.flag}
              </p>
            )}
            <Facts
              items={[
                [
                  '订单号',
                  <span key="no" className="font-mono text-xs">
                    {o.outTradeNo}
                  </span>,
                ],
                [
                  '支付平台交易号',
                  <span key="txn" className="font-mono text-xs" data-testid="provider-txn-id">
                    {o.providerTxnId ?? '-'}
                  </span>,
                ],
                ['用户', `${o.user.name}${o.user.username ? `（@${o.user.username}）` : ''}`],
                ['商品', o.subject || ORDER_TYPE_LABELS[o.type]],
                ['金额', `¥${formatCents(o.amount)}`],
                ['渠道', channelText(o)],
                ['状态', <OrderStatusBadge key="s" status={o.status} />],
                ['创建时间', formatDateTime(o.createdAt)],
                ['支付时间', formatDateTime(o.paidAt)],
                ['过期时间', formatDateTime(o.expiresAt)],
                ['退款时间', !o.refundedAt && o.refundReason ? '处理中，等待支付平台确认' : formatDateTime(o.refundedAt)],
              ]}
            />
            <Section title="发放内容">{o.grant ? <JsonBlock value={o.grant} /> : <p className="text-sm text-zinc-500">尚未发放</p>}</Section>
            <Section title={`支付通知（${o.notifications.length}）`}>
              <DataTable
                columns={[
                  { header: '收到时间', cell: (n) => formatDateTime(n.receivedAt), className: 'text-zinc-400' },
                  { header: '渠道', cell: (n) => n.channel },
                  { header: '结果', cell: (n) => n.outcome, mobile: 'title' },
                  { header: '事件 ID', cell: (n) => n.eventId ?? '-', className: 'font-mono text-xs' },
                  { header: '说明', cell: (n) => n.detail ?? '-', className: 'max-w-72 break-all text-xs text-zinc-400' },
                ]}
                rows={o.notifications}
                rowKey={(n) => n.id}
                isLoading={false}
                empty="暂无通知"
              />
            </Section>
          </div>
        )}
      </Dialog>
      {act && <ReasonDialog act={act} orderId={orderId} onClose={() => setAct(null)} />}
    </>
  )
}
