/** An image member's task price: the discount taken off, rounded up, so a paid task never becomes free. */
export function memberPrice(cost: number, discountPercent: number): number {
  if (discountPercent <= 0 || cost <= 0) return cost
  return Math.ceil((cost * (100 - Math.min(discountPercent, 99))) / 100)
}
