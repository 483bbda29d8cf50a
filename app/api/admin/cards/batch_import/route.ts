// POST /api/admin/cards/batch_import {cards: string[], points?, note?, expiresAt?}: stores PENDING cards
// for the background check → data: {batchId, count}. ADMIN only: importing issues value (only ADMIN
// moves balances and points, docs/PRODUCT.md §6).
import { route } from '@/lib/http/route'
import { importCards } from '@/lib/cards/import-cards'
import { ZCardImportSchema } from '@/lib/cards/schemas'

export const POST = route({ access: 'admin', body: ZCardImportSchema }, ({ user, ip, body }) => importCards(user, ip, body))
