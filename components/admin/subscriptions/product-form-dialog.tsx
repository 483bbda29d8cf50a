'use client'

import { useState, type FormEvent } from 'react'
import { useCreateProduct, useUpdateProduct, type AdminProduct, type ProductInput } from '@/lib/api-client/resources/admin-products'
import type { ProductType } from '@/lib/api-client/resources/products'
import { formatCents, parseYuanToCents } from '@/lib/format'
import { toast } from '@/lib/ui/toast-store'
import { useAction } from '@/lib/ui/use-action'
import { Field, Input, LabelOptions, Select, SwitchRow, Textarea } from '@/components/ui/field'
import { FormDialog } from '@/components/ui/form-dialog'
import { PRODUCT_TYPE_LABELS } from '@/components/payments/labels'

type Draft = {
  type: ProductType
  name: string
  description: string
  price: string
  points: string
  balance: string
  days: string
  dailyPoints: string
  discountPercent: string
  dailyMessages: string
  enabled: boolean
  sort: string
}

const text = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n))
const yuan = (n: number | null | undefined) => (n === null || n === undefined ? '' : formatCents(n))

function draftOf(p: AdminProduct | null, type: ProductType): Draft {
  return {
    type: p?.type ?? type,
    name: p?.name ?? '',
    description: p?.description ?? '',
    price: yuan(p?.price),
    points: text(p?.points),
    balance: yuan(p?.balance),
    days: text(p?.days),
    dailyPoints: text(p?.dailyPoints),
    discountPercent: text(p?.discountPercent),
    dailyMessages: text(p?.dailyMessages),
    enabled: p?.enabled ?? true,
    sort: text(p?.sort ?? 0),
  }
}

/** Which fields a type uses: a points pack gives points, a recharge tier balance, the plans days and their perks. */
const FIELDS: Record<ProductType, (keyof Draft)[]> = {
  BALANCE: ['balance'],
  POINTS: ['points'],
  MEMBERSHIP: ['days', 'dailyPoints', 'discountPercent'],
  CHAT_MEMBERSHIP: ['days', 'dailyMessages'],
}

/** Whole numbers from a draft, or an error message. */
function toInput(d: Draft): ProductInput | string {
  const price = parseYuanToCents(d.price)
  if (!d.name.trim()) return '请填写名称'
  if (price === null || price <= 0) return '请填写正确的价格'
  const int = (s: string, label: string, min = 0, max = Number.MAX_SAFE_INTEGER): number | null | string => {
    if (!s.trim()) return null
    const n = Number(s)
    return Number.isInteger(n) && n >= min && n <= max ? n : `${label}需为 ${min} 到 ${max === Number.MAX_SAFE_INTEGER ? '更大' : max} 之间的整数`
  }
  const fields = FIELDS[d.type]
  const out: ProductInput = { type: d.type, name: d.name.trim(), description: d.description.trim(), price, enabled: d.enabled, sort: 0 }
  const sort = int(d.sort, '排序')
  if (typeof sort === 'string') return sort
  out.sort = sort ?? 0
  if (fields.includes('balance')) {
    const b = d.balance.trim() ? parseYuanToCents(d.balance) : price
    if (b === null || b <= 0) return '请填写正确的到账金额'
    out.balance = b
  }
  const checks: [keyof Draft & keyof ProductInput, string, number, number?][] = [
    ['points', '积分', 1],
    ['days', '天数', 1],
    ['dailyPoints', '每日积分', 1],
    ['discountPercent', '优惠比例', 1, 99],
    ['dailyMessages', '每日对话数', 1],
  ]
  for (const [key, label, min, max] of checks) {
    if (!fields.includes(key)) continue
    const v = int(d[key] as string, label, min, max)
    if (typeof v === 'string') return v
    ;(out as Record<string, unknown>)[key] = v
  }
  if (d.type === 'POINTS' && !out.points) return '请填写积分数'
  if ((d.type === 'MEMBERSHIP' || d.type === 'CHAT_MEMBERSHIP') && !out.days) return '请填写天数'
  return out
}

/** 新建/编辑商品: a recharge tier, a points pack, a membership or a chat-membership plan. */
export function ProductFormDialog({ product, type, onClose }: { product: AdminProduct | null; type: ProductType; onClose: () => void }) {
  const [d, setD] = useState<Draft>(() => draftOf(product, type))
  const create = useCreateProduct()
  const update = useUpdateProduct()
  const [busy, run] = useAction()
  const set = (patch: Partial<Draft>) => setD((s) => ({ ...s, ...patch }))
  const has = (k: keyof Draft) => FIELDS[d.type].includes(k)

  async function submit(e: FormEvent) {
    e.preventDefault()
    const input = toInput(d)
    if (typeof input === 'string') return toast.error(input)
    const ok = await run(() => (product ? update.mutateAsync({ id: product.id, ...input }) : create.mutateAsync(input)))
    if (ok) {
      toast.success(product ? '已保存' : '已创建')
      onClose()
    }
  }

  const num = (key: keyof Draft, label: string, help?: string) => (
    <Field label={label} htmlFor={`p-${key}`} help={help}>
      <Input id={`p-${key}`} inputMode="numeric" value={d[key] as string} onChange={(e) => set({ [key]: e.target.value })} />
    </Field>
  )

  return (
    <FormDialog title={product ? '编辑商品' : '新建商品'} onClose={onClose} formId="product-form" busy={busy}>
      <form id="product-form" onSubmit={submit} className="grid gap-4 sm:grid-cols-2">
        <Field label="类型" htmlFor="p-type">
          <Select id="p-type" value={d.type} disabled={Boolean(product)} onChange={(e) => set({ type: e.target.value as ProductType })}>
            <LabelOptions labels={PRODUCT_TYPE_LABELS} />
          </Select>
        </Field>
        <Field label="名称" htmlFor="p-name">
          <Input id="p-name" value={d.name} onChange={(e) => set({ name: e.target.value })} placeholder="例如 1000 积分" />
        </Field>
        <Field label="价格（元）" htmlFor="p-price">
          <Input id="p-price" inputMode="decimal" value={d.price} onChange={(e) => set({ price: e.target.value })} placeholder="例如 9.90" />
        </Field>
        {has('balance') && (
          <Field label="到账余额（元）" htmlFor="p-balance" help="留空则与价格相同；大于价格即充值赠送">
            <Input id="p-balance" inputMode="decimal" value={d.balance} onChange={(e) => set({ balance: e.target.value })} />
          </Field>
        )}
        {has('points') && num('points', '积分数')}
        {has('days') && num('days', '天数', '已是会员时顺延')}
        {has('dailyPoints') && num('dailyPoints', '每日赠送积分', '留空表示不赠送')}
        {has('discountPercent') && num('discountPercent', '生成优惠（%）', '任务价格减免的百分比，1-99，留空表示不打折')}
        {has('dailyMessages') && num('dailyMessages', '每日对话条数')}
        {num('sort', '排序', '数字小的排在前面')}
        <Field label="说明" htmlFor="p-desc" className="sm:col-span-2">
          <Textarea id="p-desc" rows={2} value={d.description} onChange={(e) => set({ description: e.target.value })} />
        </Field>
        <SwitchRow id="p-enabled" label="上架" checked={d.enabled} onChange={(enabled) => set({ enabled })} className="sm:col-span-2" />
      </form>
    </FormDialog>
  )
}
