import type { Product } from '@/lib/api-client/resources/products'
import { formatCents } from '@/lib/format'
import { cn } from '@/lib/ui/cn'

/** What a product gives, in a few words: 1000 积分, 到账 ¥50.00, 30 天, 每日 100 积分... */
export function productGives(p: Product): string[] {
  const parts: string[] = []
  if (p.points) parts.push(`${p.points} 积分`)
  if (p.balance) parts.push(`到账 ¥${formatCents(p.balance)}`)
  if (p.days) parts.push(`${p.days} 天`)
  if (p.dailyPoints) parts.push(`每日 ${p.dailyPoints} 积分`)
  if (p.discountPercent) parts.push(`生成优惠 ${p.discountPercent}%`)
  if (p.dailyMessages) parts.push(`每日 ${p.dailyMessages} 条对话`)
  return parts
}

/** A product to pick: its name, price and what it gives; a radio in a group. */
export function ProductCard({ product, selected, onSelect }: { product: Product; selected: boolean; onSelect: () => void }) {
  return (
    <button
      type="button"
      role="radio"
      aria-checked={selected}
      data-testid={`product-${product.id}`}
      onClick={onSelect}
      className={cn(
        'flex flex-col items-start gap-1 rounded-xl p-3 text-left ring-1 transition focus-visible:outline-2 focus-visible:outline-brand-400',
        selected ? 'bg-brand-500/10 ring-2 ring-brand-500' : 'bg-zinc-900 ring-zinc-800 hover:ring-zinc-600',
      )}
    >
      <span className="text-sm font-medium text-white">{product.name}</span>
      <span className="text-lg font-semibold text-brand-300">¥{formatCents(product.price)}</span>
      <span className="text-xs text-zinc-400">{productGives(product).join(' · ')}</span>
      {product.description && <span className="line-clamp-2 text-xs text-zinc-500">{product.description}</span>}
    </button>
  )
}
