import 'server-only'
import { createKeyedHash } from '@/lib/crypto/secret-box'
import { db } from '@/lib/db'
import { isSameHash } from '@/lib/auth/sms/sms-code'
import { badRequest, forbidden } from '@/lib/http/app-error'
import { TICKET_EXPIRED, TICKET_USED, expireIfDue } from './login-ticket'

const keyedHash = createKeyedHash('wechat-ticket-confirm')

export const CONFIRM_REFUSED = '无法确认这次登录，请用微信重新扫描电脑上的二维码'

/**
 * The one-time value that lets a phone confirm the ticket it identified: derived from
 * the browser's OAuth state (its HttpOnly cookie) and the ticket, handed only to the
 * callback page of that browser. Other sites can neither read it nor send the cookie
 * with a request of their own making (SameSite, and the Origin check).
 */
export function ticketConfirmKey(state: string, ticketId: string): string {
  return keyedHash(`${state}:${ticketId}`)
}

/**
 * The phone's explicit 确认登录 (IDENTIFIED → CONFIRMED): only from the browser that
 * identified the ticket, for the user it identified, before the ticket's time is up,
 * once (one conditional update decides).
 */
export async function confirmLoginTicket(input: { ticketId: string; key: string; cookieState: string | null }): Promise<{ status: 'CONFIRMED' }> {
  const { ticketId: id, cookieState } = input
  if (!cookieState || !isSameHash(input.key, ticketConfirmKey(cookieState, id))) throw forbidden(CONFIRM_REFUSED)
  const state = await db().oAuthState.findUnique({ where: { state: cookieState }, select: { purpose: true, ticketId: true, userId: true, usedAt: true } })
  if (!state || state.purpose !== 'ticket' || state.ticketId !== id || !state.usedAt || !state.userId) throw forbidden(CONFIRM_REFUSED)

  await expireIfDue(db(), id)
  const { count } = await db().loginTicket.updateMany({
    where: { id, status: 'IDENTIFIED', userId: state.userId, expiresAt: { gt: new Date() } },
    data: { status: 'CONFIRMED' },
  })
  if (count === 0) {
    const ticket = await db().loginTicket.findUnique({ where: { id }, select: { status: true, userId: true } })
    if (ticket?.status === 'EXPIRED') throw badRequest(TICKET_EXPIRED)
    if (ticket?.userId === state.userId && (ticket.status === 'CONFIRMED' || ticket.status === 'CONSUMED')) throw badRequest(TICKET_USED)
    throw forbidden(CONFIRM_REFUSED)
  }
  return { status: 'CONFIRMED' }
}
