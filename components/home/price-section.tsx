'use client'

import Link from 'next/link'
import { useProducts, type Product, type ProductType } from '@/lib/api-client/resources/products'
import { formatCents } from '@/lib/format'

const GROUPS: { type: ProductType; title: string }[] = [
  { type: 'POINTS', title: '积分包' },
  { type: 'MEMBERSHIP', title: '会员' },
  { type: 'CHAT_MEMBERSHIP', title: '对话会员' },
  { type: 'BALANCE', title: '余额充值' },
]

/** What a product gives, in a line. */
function gives(p: Product): string {
  const parts: string[] = []
  if (p.type === 'POINTS' && p.points) parts.push(`${p.points} 积分`)
  if (p.type === 'BALANCE') parts.push(`到账 ${formatCents(p.balance ?? p.price)} 元`)
  if (p.days) parts.push(`${p.days} 天`)
  if (p.dailyPoints) parts.push(`每天送 ${p.dailyPoints} 积分`)
  if (p.discountPercent) parts.push(`生成 ${(100 - p.discountPercent) / 10} 折`)
  if (p.type === 'CHAT_MEMBERSHIP') parts.push(p.dailyMessages ? `每天 ${p.dailyMessages} 次对话` : '不限次对话')
  if (p.type !== 'POINTS' && p.points) parts.push(`另送 ${p.points} 积分`)
  return parts.join(' · ')
}

/** The landing page's prices: what the operator sells, from GET /api/products; nothing when nothing is on sale. */
export function PriceSection({ signedIn }: { signedIn: boolean | undefined }) {
  const { data: products } = useProducts()
  if (!products?.length) return null
  const groups = GROUPS.map((g) => ({ ...g, items: products.filter((p) => p.type === g.type) })).filter((g) => g.items.length > 0)
  return (
    <section aria-labelledby="prices" className="space-y-4">
      <div className="flex items-end justify-between gap-3">
        <h2 id="prices" className="text-lg font-medium text-white sm:text-xl">
          价格
        </h2>
        <Link href={signedIn ? '/account' : '/login'} className="shrink-0 text-sm text-brand-300 hover:text-brand-200">
          {signedIn ? '去充值 →' : '登录后购买 →'}
        </Link>
      </div>
      {groups.map((g) => (
        <div key={g.type}>
          <h3 className="mb-2 text-sm text-zinc-400">{g.title}</h3>
          <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
            {g.items.map((p) => (
              <li key={p.id} className="rounded-2xl bg-zinc-900/70 p-5 ring-1 ring-zinc-800" data-testid="price-card">
                <div className="font-medium text-white">{p.name}</div>
                <div className="mt-2 text-2xl font-semibold text-white">
                  <span className="mr-0.5 text-base">¥</span>
                  {formatCents(p.price)}
                </div>
                <div className="mt-1 text-xs text-zinc-400">{gives(p)}</div>
                {p.description && <div className="mt-2 text-xs text-zinc-500">{p.description}</div>}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  )
}
