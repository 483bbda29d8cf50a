import 'server-only'
import { db } from '@/lib/db'
import { recordAudit } from '@/lib/audit/record-audit'
import { isAdmin } from '@/lib/auth/permissions'
import type { SessionUser } from '@/lib/auth/session'
import { conflict, forbidden, notFound } from '@/lib/http/app-error'
import { ADMIN_CARD_SELECT, toAdminCardRow, type AdminCardRow } from './card-views'

export const EXPORTED_NOT_ASSIGNABLE = '该卡密已导出，可能已经售出，不能再分配给用户'

/** Hands a ready, unused, unheld, never exported card to a user; it then shows on their /my_cards. */
export async function assignCard(actor: SessionUser, ip: string, cardId: number, userId: string): Promise<AdminCardRow> {
  return db().$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: userId }, select: { id: true, username: true } })
    if (!user) throw notFound('用户不存在')
    const { count } = await tx.card.updateMany({
      where: { id: cardId, status: 'SUCCESS', usedAt: null, disabledAt: null, holderId: null, exportedAt: null },
      data: { holderId: userId },
    })
    if (count === 0) {
      const card = await tx.card.findUnique({ where: { id: cardId }, select: { status: true, usedAt: true, disabledAt: true, holderId: true } })
      if (!card) throw notFound('卡密不存在')
      if (card.status !== 'SUCCESS') throw conflict('只有校验通过的卡密才能分配')
      if (card.usedAt) throw conflict('该卡密已被使用')
      if (card.disabledAt) throw conflict('该卡密已停用')
      if (card.holderId) throw conflict('该卡密已分配给其他用户')
      throw conflict(EXPORTED_NOT_ASSIGNABLE)
    }
    await recordAudit(tx, actor, ip, {
      action: 'card.assign',
      targetType: 'Card',
      targetId: String(cardId),
      after: { holderId: userId, holder: user.username },
    })
    return toAdminCardRow(await tx.card.findUniqueOrThrow({ where: { id: cardId }, select: ADMIN_CARD_SELECT }))
  })
}

/** Stops (or allows again) the redemption of an unused card. Allowing again gives value back, as issuing does: ADMIN only. */
export async function setCardDisabled(actor: SessionUser, ip: string, cardId: number, disabled: boolean): Promise<AdminCardRow> {
  if (!disabled && !isAdmin(actor.role)) throw forbidden('只有管理员可以重新启用卡密')
  return db().$transaction(async (tx) => {
    const { count } = await tx.card.updateMany({ where: { id: cardId, usedAt: null }, data: { disabledAt: disabled ? new Date() : null } })
    if (count === 0) {
      const exists = await tx.card.count({ where: { id: cardId } })
      throw exists ? conflict('已使用的卡密不能停用或启用') : notFound('卡密不存在')
    }
    await recordAudit(tx, actor, ip, { action: disabled ? 'card.disable' : 'card.enable', targetType: 'Card', targetId: String(cardId) })
    return toAdminCardRow(await tx.card.findUniqueOrThrow({ where: { id: cardId }, select: ADMIN_CARD_SELECT }))
  })
}
