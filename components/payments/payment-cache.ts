'use client'

import type { PaymentStart } from '@/lib/api-client/resources/orders'

/**
 * The payment of a pending order, kept in this browser so that 继续支付 from the order
 * history can show the same QR code again (the order list does not carry it). Best effort:
 * storage may be off, and a missing entry only means the QR cannot be shown again.
 */
const KEY = 'aiimg.pending-payments'
const MAX = 20

function read(): Record<string, PaymentStart> {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? '{}') as Record<string, PaymentStart>
  } catch {
    return {}
  }
}

export function rememberPayment(orderId: string, payment: PaymentStart): void {
  try {
    const entries = Object.entries(read()).filter(([id]) => id !== orderId)
    const kept = Object.fromEntries([...entries.slice(-(MAX - 1)), [orderId, payment]])
    localStorage.setItem(KEY, JSON.stringify(kept))
  } catch {
    // storage off or full: the order is still in the history
  }
}

export function recallPayment(orderId: string): PaymentStart | undefined {
  return read()[orderId]
}
