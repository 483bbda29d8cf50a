import { db } from '@/lib/db'
import { recordAudit } from '@/lib/audit/record-audit'
import type { SessionUser } from '@/lib/auth/session'
import { formatDateTime } from '@/lib/format'
import { openKey } from './card-key'

function csvCell(value: string | number): string {
  const text = String(value)
  // Quote everything; a leading = + - @ would be run as a formula by spreadsheet programs.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text
  return `"${safe.replace(/"/g, '""')}"`
}

/**
 * The one place full keys leave the server: ready, unused, unheld, enabled, unexpired
 * cards as CSV (UTF-8 with BOM so Excel reads the Chinese header). ADMIN only, audited.
 */
export async function exportReadyCards(actor: SessionUser, ip: string, batchId?: number): Promise<{ csv: string; count: number }> {
  const cards = await db().card.findMany({
    where: {
      status: 'SUCCESS', usedAt: null, holderId: null, disabledAt: null,
      OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }],
      ...(batchId ? { batchId } : {}),
    },
    select: { id: true, cardNo: true, cardKeyEnc: true, points: true, expiresAt: true, batch: { select: { note: true } } },
    orderBy: { id: 'asc' },
  })
  const header = ['卡号', '卡密', '积分', '过期时间', '批次备注']
  const lines = cards.map((c) => [c.cardNo, openKey(c.cardKeyEnc) ?? '', c.points, c.expiresAt ? formatDateTime(c.expiresAt) : '', c.batch.note ?? ''].map(csvCell).join(','))
  await db().$transaction((tx) =>
    recordAudit(tx, actor, ip, { action: 'cards.export', targetType: 'CardBatch', targetId: batchId ? String(batchId) : null, after: { count: cards.length } }),
  )
  return { csv: '\uFEFF' + [header.map(csvCell).join(','), ...lines].join('\r\n') + '\r\n', count: cards.length }
}
