import { z } from '@/lib/zod'
import { OAUTH_PURPOSES } from './oauth-state'
import { ZOptionalInviteSchema } from '@/lib/invites/schemas'

const ZTicketIdSchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, '二维码编号格式不正确')

/** GET /api/auth/wechat/authorize (a link) and POST (a request that may carry the user's token). */
export const ZAuthorizeQuerySchema = z.object({
  purpose: z.enum(OAUTH_PURPOSES, { error: '授权用途不正确' }).default('login'),
  return: z.string().max(2000).optional(),
  ticket: ZTicketIdSchema.optional(),
  /** The sealed desktop details from the QR link (purpose ticket). */
  from: z.string().max(400).optional(),
  /** An invite code (docs/PRODUCT.md §17): binds the account this sign-in creates. */
  invite: ZOptionalInviteSchema,
})

export const ZAuthorizeBodySchema = z
  .object({
    purpose: z.enum(OAUTH_PURPOSES, { error: '授权用途不正确' }),
    returnPath: z.string().max(2000).optional(),
    ticketId: ZTicketIdSchema.optional(),
    ticketFrom: z.string().max(400).optional(),
    invite: ZOptionalInviteSchema,
  })
  .strict()

export const ZCallbackSchema = z
  .object({
    code: z.string({ error: '缺少微信授权码' }).min(1, '缺少微信授权码').max(512),
    state: z.string({ error: '缺少授权状态' }).regex(/^[A-Za-z0-9]{1,128}$/, '微信授权状态无效，请重新发起微信登录'),
  })
  .strict()

/** POST /api/auth/wechat/ticket?invite=: the desktop's invite code, passed on in the QR link. */
export const ZTicketCreateQuerySchema = z.object({ invite: ZOptionalInviteSchema })

export const ZTicketParamsSchema = z.object({ id: ZTicketIdSchema })

/** POST /api/auth/wechat/ticket/{id}/confirm: the one-time value the callback gave this browser. */
export const ZTicketConfirmSchema = z.object({ key: z.string({ error: '缺少确认凭据' }).regex(/^[0-9a-f]{64}$/, '确认凭据无效') }).strict()
