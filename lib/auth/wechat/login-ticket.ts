import { randomBytes } from 'node:crypto'
import QRCode from 'qrcode'
import { db, type Tx } from '@/lib/db'
import { takeAttempt } from '@/lib/auth/rate-limit'
import { issueToken } from '@/lib/auth/token'
import { badRequest, forbidden, notFound } from '@/lib/http/app-error'
import { WX_CALLBACK_PATH } from './authorize-url'
import { WECHAT_MESSAGES } from './messages'
import { wechatMpApp } from './wechat-config'

/**
 * The desktop QR login: the desktop creates a ticket and shows a QR code of
 * /wx_auth?ticket=<id>; a phone opens it in WeChat (SCANNED), confirms through OAuth
 * (CONFIRMED, with the user), and the desktop's next poll takes the token exactly
 * once (CONSUMED). A ticket lives 5 minutes; its id is unguessable, since whoever
 * holds it receives the token.
 */
export const TICKET_TTL_SECONDS = 5 * 60
export const TICKET_CREATE_LIMIT = { max: 20, windowSeconds: 10 * 60 }

export type TicketStatus = 'PENDING' | 'SCANNED' | 'CONFIRMED' | 'CONSUMED' | 'EXPIRED'

export const TICKET_EXPIRED = WECHAT_MESSAGES['ticket-expired']
export const TICKET_USED = WECHAT_MESSAGES['ticket-used']
const TICKET_UNKNOWN = WECHAT_MESSAGES['ticket-unknown']

/** expiresInSeconds lets the page keep time by its own clock, whatever its offset from ours. */
export type NewTicket = { id: string; expiresAt: Date; expiresInSeconds: number; scanUrl: string; qrSvg: string }

export async function createLoginTicket(origin: string, ip: string): Promise<NewTicket> {
  await wechatMpApp()
  await takeAttempt([{ key: `wx-ticket:ip:${ip}`, ...TICKET_CREATE_LIMIT }], '二维码刷新')
  const id = randomBytes(24).toString('base64url')
  const expiresAt = new Date(Date.now() + TICKET_TTL_SECONDS * 1000)
  await db().loginTicket.create({ data: { id, expiresAt } })
  const scanUrl = `${origin}${WX_CALLBACK_PATH}?ticket=${id}`
  const qrSvg = await QRCode.toString(scanUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M', color: { dark: '#000000', light: '#ffffff' } })
  return { id, expiresAt, expiresInSeconds: TICKET_TTL_SECONDS, scanUrl, qrSvg }
}

/** Ends tickets whose time is up, so every reader sees EXPIRED. */
async function expireIfDue(id: string): Promise<void> {
  await db().loginTicket.updateMany({ where: { id, status: { in: ['PENDING', 'SCANNED', 'CONFIRMED'] }, expiresAt: { lte: new Date() } }, data: { status: 'EXPIRED' } })
}

/** Checks that a ticket can still be confirmed; the phone's page calls this when it opens. */
export async function scanLoginTicket(id: string): Promise<{ status: TicketStatus; expiresAt: Date }> {
  await expireIfDue(id)
  await db().loginTicket.updateMany({ where: { id, status: 'PENDING' }, data: { status: 'SCANNED' } })
  const ticket = await db().loginTicket.findUnique({ where: { id }, select: { status: true, expiresAt: true } })
  if (!ticket) throw notFound(TICKET_UNKNOWN)
  assertConfirmable(ticket.status as TicketStatus)
  return { status: ticket.status as TicketStatus, expiresAt: ticket.expiresAt }
}

export async function assertTicketConfirmable(id: string): Promise<void> {
  await expireIfDue(id)
  const ticket = await db().loginTicket.findUnique({ where: { id }, select: { status: true } })
  if (!ticket) throw notFound(TICKET_UNKNOWN)
  assertConfirmable(ticket.status as TicketStatus)
}

function assertConfirmable(status: TicketStatus): void {
  if (status === 'EXPIRED') throw badRequest(TICKET_EXPIRED)
  if (status === 'CONFIRMED' || status === 'CONSUMED') throw badRequest(TICKET_USED)
}

/** The phone's OAuth finished for this user: the ticket now belongs to them (one conditional update). */
export async function confirmLoginTicket(tx: Tx, id: string, userId: string): Promise<void> {
  const { count } = await tx.loginTicket.updateMany({
    where: { id, status: { in: ['PENDING', 'SCANNED'] }, expiresAt: { gt: new Date() } },
    data: { status: 'CONFIRMED', userId },
  })
  if (count === 0) {
    const ticket = await tx.loginTicket.findUnique({ where: { id }, select: { status: true } })
    throw badRequest(!ticket || ticket.status === 'CONFIRMED' || ticket.status === 'CONSUMED' ? TICKET_USED : TICKET_EXPIRED)
  }
}

/**
 * The desktop's poll. A confirmed ticket is consumed by the one poll whose conditional
 * update succeeds, which alone receives the token; every later poll sees CONSUMED.
 */
export async function pollLoginTicket(id: string): Promise<{ status: TicketStatus; token?: string }> {
  await expireIfDue(id)
  const ticket = await db().loginTicket.findUnique({ where: { id }, select: { status: true, userId: true } })
  if (!ticket) throw notFound(TICKET_UNKNOWN)
  if (ticket.status !== 'CONFIRMED' || !ticket.userId) return { status: ticket.status as TicketStatus }

  const { count } = await db().loginTicket.updateMany({
    where: { id, status: 'CONFIRMED', expiresAt: { gt: new Date() } },
    data: { status: 'CONSUMED', consumedAt: new Date() },
  })
  if (count === 0) return pollLoginTicket(id)
  const user = await db().user.findUnique({ where: { id: ticket.userId }, select: { tokenVersion: true, bannedAt: true } })
  if (!user) throw notFound('用户不存在')
  if (user.bannedAt) throw forbidden('账号已被禁用，请联系管理员')
  return { status: 'CONSUMED', token: await issueToken(ticket.userId, user.tokenVersion) }
}
