import 'server-only'
import { randomBytes } from 'node:crypto'
import { createKeyedHash } from '@/lib/crypto/secret-box'
import { isSameHash } from '@/lib/auth/sms/sms-code'
import QRCode from 'qrcode'
import { db, type Tx } from '@/lib/db'
import { takeAttempt } from '@/lib/auth/rate-limit'
import { issueToken } from '@/lib/auth/token'
import { badRequest, forbidden, notFound } from '@/lib/http/app-error'
import { WX_CALLBACK_PATH } from './authorize-url'
import { browserLabel } from './browser-label'
import { openDesktopDetails, sealDesktopDetails, type DesktopDetails } from './desktop-details'
import { WECHAT_MESSAGES } from './messages'
import { wechatMpApp } from './wechat-config'
import { normalizeInviteCode } from '@/lib/invites/schemas'
import { limitAddress } from '@/lib/http/client-ip'

/**
 * The desktop QR login: the desktop creates a ticket and shows a QR code of
 * /wx_auth?ticket=<id>&from=<sealed desktop details>; a phone opens it in WeChat
 * (SCANNED), WeChat OAuth tells us who holds the phone (IDENTIFIED, with the user and
 * the phone's OAuth state), the user confirms on the phone with an explicit request
 * from that same browser (CONFIRMED, confirm-ticket.ts), and the desktop's next poll
 * takes the token exactly once (CONSUMED). OAuth alone never confirms: a link that
 * runs it in someone's WeChat must not hand their account to whoever made the ticket.
 * A ticket lives 5 minutes. Its id is in the QR code, which anyone who sees the screen can
 * read, so the poll also needs the ticket's poll key (ticketPollKey), given only to the
 * page that created the ticket: whoever holds that receives the token.
 */
export const TICKET_TTL_SECONDS = 5 * 60
export const TICKET_CREATE_LIMIT = { max: 20, windowSeconds: 10 * 60 }

export type TicketStatus = 'PENDING' | 'SCANNED' | 'IDENTIFIED' | 'CONFIRMED' | 'CONSUMED' | 'EXPIRED'
/** What the desktop's poll reports: IDENTIFIED is still "scanned, waiting for the phone" there. */
export type PolledStatus = Exclude<TicketStatus, 'IDENTIFIED'>

export const TICKET_EXPIRED = WECHAT_MESSAGES['ticket-expired']
export const TICKET_USED = WECHAT_MESSAGES['ticket-used']
export const TICKET_INVALID = WECHAT_MESSAGES['ticket-invalid']
const TICKET_UNKNOWN = WECHAT_MESSAGES['ticket-unknown']
const LIVE_STATUSES = ['PENDING', 'SCANNED', 'IDENTIFIED', 'CONFIRMED']

/** expiresInSeconds lets the page keep time by its own clock, whatever its offset from ours. */
export type NewTicket = { id: string; pollKey: string; expiresAt: Date; expiresInSeconds: number; scanUrl: string; qrSvg: string }

const TICKET_NOT_YOURS = WECHAT_MESSAGES['ticket-not-yours']
const pollKeyHash = createKeyedHash('wechat-ticket-poll')

/** Derived from the id with the server's secret: no one who only saw the QR code can make it. */
export function ticketPollKey(ticketId: string): string {
  return pollKeyHash(ticketId)
}

export async function createLoginTicket(input: { origin: string; ip: string; userAgent: string | null; invite?: string }): Promise<NewTicket> {
  await wechatMpApp()
  await takeAttempt([{ key: `wx-ticket:ip:${limitAddress(input.ip)}`, ...TICKET_CREATE_LIMIT }], '二维码刷新')
  const id = randomBytes(24).toString('base64url')
  const expiresAt = new Date(Date.now() + TICKET_TTL_SECONDS * 1000)
  await db().loginTicket.create({ data: { id, expiresAt } })
  const from = sealDesktopDetails(id, { ip: input.ip, browser: browserLabel(input.userAgent) })
  // An invite code from the desktop's sign-in link rides along to the phone, which may create the account (docs/PRODUCT.md §17).
  const invite = input.invite ? normalizeInviteCode(input.invite) : ''
  const scanUrl = `${input.origin}${WX_CALLBACK_PATH}?ticket=${id}&from=${from}${/^[0-9A-Z]{1,32}$/.test(invite) ? `&invite=${invite}` : ''}`
  const qrSvg = await QRCode.toString(scanUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M', color: { dark: '#000000', light: '#ffffff' } })
  return { id, pollKey: ticketPollKey(id), expiresAt, expiresInSeconds: TICKET_TTL_SECONDS, scanUrl, qrSvg }
}

/** Ends tickets whose time is up, so every reader sees EXPIRED. */
export async function expireIfDue(client: Tx, id: string): Promise<void> {
  await client.loginTicket.updateMany({ where: { id, status: { in: LIVE_STATUSES }, expiresAt: { lte: new Date() } }, data: { status: 'EXPIRED' } })
}

/** Checks that a ticket can still be taken by a phone; the phone's page calls this when it opens. */
export async function scanLoginTicket(id: string): Promise<{ status: TicketStatus; expiresAt: Date }> {
  await expireIfDue(db(), id)
  await db().loginTicket.updateMany({ where: { id, status: 'PENDING' }, data: { status: 'SCANNED' } })
  const ticket = await db().loginTicket.findUnique({ where: { id }, select: { status: true, expiresAt: true } })
  if (!ticket) throw notFound(TICKET_UNKNOWN)
  assertOpen(ticket.status as TicketStatus)
  return { status: ticket.status as TicketStatus, expiresAt: ticket.expiresAt }
}

/** Before the phone's OAuth starts: the ticket is still open and the desktop details are the ones sealed for it. */
export async function assertTicketIdentifiable(id: string, from: string | undefined): Promise<void> {
  await expireIfDue(db(), id)
  const ticket = await db().loginTicket.findUnique({ where: { id }, select: { status: true } })
  if (!ticket) throw notFound(TICKET_UNKNOWN)
  assertOpen(ticket.status as TicketStatus)
  if (!openDesktopDetails(id, from)) throw badRequest(TICKET_INVALID)
}

function assertOpen(status: TicketStatus): void {
  if (status === 'EXPIRED') throw badRequest(TICKET_EXPIRED)
  if (status !== 'PENDING' && status !== 'SCANNED') throw badRequest(TICKET_USED)
}

export type IdentifiedTicket = { ticketId: string; createdAt: Date; expiresAt: Date; desktop: DesktopDetails }

/**
 * The phone's OAuth finished for this user: the ticket is now theirs to confirm, from the
 * browser whose OAuth state did it (the state row keeps the user). Not a confirmation.
 */
export async function identifyLoginTicket(
  tx: Tx,
  input: { ticketId: string; userId: string; state: string; desktop: DesktopDetails },
): Promise<IdentifiedTicket> {
  const { ticketId: id, userId } = input
  await expireIfDue(tx, id)
  const { count } = await tx.loginTicket.updateMany({
    where: { id, status: { in: ['PENDING', 'SCANNED'] }, expiresAt: { gt: new Date() } },
    data: { status: 'IDENTIFIED', userId },
  })
  const ticket = await tx.loginTicket.findUnique({ where: { id }, select: { status: true, createdAt: true, expiresAt: true } })
  if (count === 0) throw badRequest(!ticket ? TICKET_UNKNOWN : ticket.status === 'EXPIRED' ? TICKET_EXPIRED : TICKET_USED)
  await tx.oAuthState.update({ where: { state: input.state }, data: { userId } })
  return { ticketId: id, createdAt: ticket!.createdAt, expiresAt: ticket!.expiresAt, desktop: input.desktop }
}

/**
 * The desktop's poll, with the ticket's poll key. A confirmed ticket is consumed by the one
 * poll whose conditional update succeeds, which alone receives the token; every later poll
 * sees CONSUMED.
 */
export async function pollLoginTicket(id: string, pollKey: string | null): Promise<{ status: PolledStatus; token?: string }> {
  if (!pollKey || !isSameHash(pollKey, ticketPollKey(id))) throw forbidden(TICKET_NOT_YOURS)
  await expireIfDue(db(), id)
  const ticket = await db().loginTicket.findUnique({ where: { id }, select: { status: true, userId: true } })
  if (!ticket) throw notFound(TICKET_UNKNOWN)
  const status = ticket.status as TicketStatus
  if (status === 'IDENTIFIED') return { status: 'SCANNED' }
  if (status !== 'CONFIRMED' || !ticket.userId) return { status }

  const { count } = await db().loginTicket.updateMany({
    where: { id, status: 'CONFIRMED', expiresAt: { gt: new Date() } },
    data: { status: 'CONSUMED', consumedAt: new Date() },
  })
  if (count === 0) return pollLoginTicket(id, pollKey)
  const user = await db().user.findUnique({ where: { id: ticket.userId }, select: { tokenVersion: true, bannedAt: true } })
  if (!user) throw notFound('用户不存在')
  if (user.bannedAt) throw forbidden('账号已被禁用，请联系管理员')
  return { status: 'CONSUMED', token: await issueToken(ticket.userId, user.tokenVersion) }
}
