// Shared with the browser (the console's rate form), so free of zod (see docs/ARCHITECTURE.md,
// Layers: browser code reaches no zod).

/** The order types that earn commission (docs/PRODUCT.md §3.2). */
export const COMMISSION_ORDER_TYPES = ['BALANCE', 'POINTS', 'MEMBERSHIP', 'CHAT_MEMBERSHIP', 'BUY_VIDEO_MATERIAL', 'BATCH_BUY_VIDEO_MATERIAL'] as const
export type CommissionOrderType = (typeof COMMISSION_ORDER_TYPES)[number]
