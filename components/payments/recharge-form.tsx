'use client'

import { useMemo, useRef, useState } from 'react'
import { ApiError } from '@/lib/api-client/request'
import { useCreateOrder, type CreatedOrder, type CreateOrderInput, type PayChannel } from '@/lib/api-client/resources/orders'
import { PRODUCT_TYPES, useProducts, type ProductType } from '@/lib/api-client/resources/products'
import type { Wallet } from '@/lib/api-client/resources/wallet'
import { formatCents, parseYuanToCents } from '@/lib/format'
import { cn } from '@/lib/ui/cn'
import { Button } from '@/components/ui/button'
import { EmptyState } from '@/components/ui/card'
import { Input } from '@/components/ui/field'
import { Loading } from '@/components/ui/spinner'
import { CHANNEL_LABELS, PRODUCT_TYPE_LABELS } from './labels'
import { detectPayEnv, mayHaveOrdered, newIdempotencyKey, paymentFields, type AlipayDesktopMode } from './pay-env'
import { ProductCard } from './product-card'
import { currentReturnPath } from './return-path'
import { startPayment } from './start-payment'

const CUSTOM = 'custom'

function Segmented<T extends string>({
  label,
  options,
  value,
  onChange,
}: {
  label: string
  options: { value: T; label: string }[]
  value: T
  onChange: (v: T) => void
}) {
  return (
    <div role="radiogroup" aria-label={label} className="flex flex-wrap gap-2">
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          role="radio"
          aria-checked={value === o.value}
          onClick={() => onChange(o.value)}
          className={cn(
            'h-9 rounded-lg px-3 text-sm ring-1 transition',
            value === o.value ? 'bg-brand-500/15 text-white ring-2 ring-brand-500' : 'bg-zinc-900 text-zinc-300 ring-zinc-700 hover:ring-zinc-500',
          )}
        >
          {o.label}
        </button>
      ))}
    </div>
  )
}

/**
 * The 充值 area: 余额充值 (tiers and a custom amount), 积分包, 会员, 对话会员, then the way to
 * pay and 立即支付. A new order goes to `onCreated` unless the page left for the provider.
 */
export function RechargeForm({
  wallet,
  initialTab = 'POINTS',
  onCreated,
}: {
  wallet: Wallet
  initialTab?: ProductType
  onCreated: (created: CreatedOrder) => void
}) {
  const products = useProducts()
  const create = useCreateOrder()
  const [tab, setTab] = useState<ProductType>(initialTab)
  const [picked, setPicked] = useState<Partial<Record<ProductType, string>>>({})
  const [customYuan, setCustomYuan] = useState('')
  const [alipayMode, setAlipayMode] = useState<AlipayDesktopMode>('qr')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  // One key per attempt; pressing again after a failure with the same choice is a retry and reuses it.
  const attempt = useRef<{ signature: string; key: string } | null>(null)
  const env = useMemo(() => (typeof navigator === 'undefined' ? 'desktop' : detectPayEnv(navigator.userAgent)), [])

  const channels: PayChannel[] = [...(wallet.channels.wechat ? ['WECHAT' as const] : []), ...(wallet.channels.alipay ? ['ALIPAY' as const] : [])]
  if (tab !== 'BALANCE') channels.push('BALANCE')
  const [chosenChannel, setChannel] = useState<PayChannel | null>(null)
  const channel = chosenChannel && channels.includes(chosenChannel) ? chosenChannel : (channels[0] ?? null)

  const ofTab = (products.data ?? []).filter((p) => p.type === tab)
  const tabs = PRODUCT_TYPES.filter((t) => t === 'BALANCE' || (products.data ?? []).some((p) => p.type === t))
  const selected = picked[tab] ?? (tab === 'BALANCE' && ofTab.length === 0 ? CUSTOM : ofTab[0]?.id)
  const product = ofTab.find((p) => p.id === selected)
  const customCents = selected === CUSTOM ? parseYuanToCents(customYuan) : null
  const { minCents, maxCents } = wallet.recharge
  const customError =
    selected !== CUSTOM || customYuan.trim() === ''
      ? null
      : customCents === null || customCents <= 0
        ? '请输入正确的金额'
        : customCents < minCents || customCents > maxCents
          ? `充值金额需在 ¥${formatCents(minCents)} 至 ¥${formatCents(maxCents)} 之间`
          : null
  const amount = product?.price ?? (customError ? null : customCents)
  const canPay = Boolean(channel) && amount !== null && amount > 0 && !customError

  async function pay() {
    if (!channel || !canPay) return
    const input: CreateOrderInput = {
      type: tab,
      channel,
      ...(product ? { productId: product.id } : { amount: customCents ?? undefined }),
      ...paymentFields(channel, env, alipayMode),
      returnPath: currentReturnPath(),
    }
    const signature = JSON.stringify(input)
    if (attempt.current?.signature !== signature) attempt.current = { signature, key: newIdempotencyKey() }
    setError(null)
    setBusy(true)
    try {
      const created = await create.mutateAsync({ input, idempotencyKey: attempt.current.key })
      attempt.current = null
      if ((await startPayment(created)) === 'show') onCreated(created)
      else return // leaving for the provider: keep the button busy
      setBusy(false)
    } catch (e) {
      if (!mayHaveOrdered(e)) attempt.current = null
      setError(e instanceof ApiError ? e.message : '下单失败，请稍后再试')
      setBusy(false)
    }
  }

  if (products.isLoading) return <Loading />
  if (products.isError) return <EmptyState>商品加载失败，请稍后刷新重试</EmptyState>

  return (
    <div className="space-y-5" data-testid="recharge-form">
      <div role="tablist" aria-label="充值类型" className="flex gap-1 overflow-x-auto rounded-xl bg-zinc-950/60 p-1 ring-1 ring-zinc-800">
        {tabs.map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            aria-selected={tab === t}
            onClick={() => {
              setTab(t)
              setError(null)
            }}
            className={cn(
              'h-9 flex-1 whitespace-nowrap rounded-lg px-3 text-sm transition',
              tab === t ? 'bg-zinc-800 text-white' : 'text-zinc-400 hover:text-white',
            )}
          >
            {PRODUCT_TYPE_LABELS[t]}
          </button>
        ))}
      </div>

      <div role="radiogroup" aria-label={PRODUCT_TYPE_LABELS[tab]} className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        {ofTab.map((p) => (
          <ProductCard key={p.id} product={p} selected={selected === p.id} onSelect={() => setPicked((s) => ({ ...s, [tab]: p.id }))} />
        ))}
        {tab === 'BALANCE' && (
          <button
            type="button"
            role="radio"
            aria-checked={selected === CUSTOM}
            onClick={() => setPicked((s) => ({ ...s, BALANCE: CUSTOM }))}
            className={cn(
              'flex flex-col items-start justify-center gap-1 rounded-xl p-3 text-left ring-1 transition',
              selected === CUSTOM ? 'bg-brand-500/10 ring-2 ring-brand-500' : 'bg-zinc-900 ring-zinc-800 hover:ring-zinc-600',
            )}
          >
            <span className="text-sm font-medium text-white">自定义金额</span>
            <span className="text-xs text-zinc-400">
              ¥{formatCents(minCents)} - ¥{formatCents(maxCents)}
            </span>
          </button>
        )}
      </div>
      {tab !== 'BALANCE' && ofTab.length === 0 && <EmptyState>暂无可购买的{PRODUCT_TYPE_LABELS[tab]}</EmptyState>}
      {selected === CUSTOM && (
        <div className="space-y-1.5">
          <label htmlFor="recharge-amount" className="block text-sm text-zinc-300">
            充值金额（元）
          </label>
          <Input
            id="recharge-amount"
            inputMode="decimal"
            value={customYuan}
            onChange={(e) => setCustomYuan(e.target.value)}
            placeholder="例如 50"
            className="max-w-48"
          />
          {customError && <p className="text-xs text-red-400">{customError}</p>}
        </div>
      )}

      <div className="space-y-2">
        <div className="text-sm text-zinc-300">支付方式</div>
        {channels.length === 0 ? (
          <p className="text-sm text-zinc-500">暂未开通在线支付，请联系管理员</p>
        ) : (
          <Segmented
            label="支付方式"
            options={channels.map((c) => ({ value: c, label: c === 'BALANCE' ? `余额（¥${formatCents(wallet.balance)}）` : CHANNEL_LABELS[c] }))}
            value={channel ?? channels[0]!}
            onChange={setChannel}
          />
        )}
        {channel === 'ALIPAY' && env === 'desktop' && (
          <Segmented
            label="支付宝支付方式"
            options={[
              { value: 'qr', label: '扫码支付' },
              { value: 'page', label: '跳转支付宝网页' },
            ]}
            value={alipayMode}
            onChange={setAlipayMode}
          />
        )}
      </div>

      {error && (
        <p role="alert" className="rounded-lg bg-red-500/10 px-3 py-2 text-sm text-red-300 ring-1 ring-red-500/30">
          {error}
        </p>
      )}
      <div className="flex items-center justify-between gap-3">
        <div className="text-sm text-zinc-400">
          应付 <span className="text-xl font-semibold text-white">¥{amount !== null && amount > 0 ? formatCents(amount) : '0.00'}</span>
        </div>
        <Button onClick={pay} loading={busy} disabled={!canPay}>
          立即支付
        </Button>
      </div>
    </div>
  )
}
