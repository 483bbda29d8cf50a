import { z } from '@/lib/zod'
import { ZAgreeTermsSchema, ZMobileSchema } from '@/lib/users/schemas'
import { ZOptionalInviteSchema } from '@/lib/invites/schemas'

export const SMS_PURPOSES = ['login', 'bind'] as const
export type SmsPurpose = (typeof SMS_PURPOSES)[number]

export const ZSmsCodeSchema = z
  .string({ error: '请输入验证码' })
  .trim()
  .regex(/^\d{6}$/, '请输入 6 位数字验证码')

export const ZSmsSendSchema = z.object({ mobile: ZMobileSchema, purpose: z.enum(SMS_PURPOSES, { error: '用途只能是 login 或 bind' }) }).strict()

export const ZBindMobileSchema = z.object({ mobile: ZMobileSchema, code: ZSmsCodeSchema }).strict()
/** `agreeTerms`: the page showed the consent to the terms and the user ticked it (recorded if the sign-in creates the account). */
export const ZSmsLoginSchema = ZBindMobileSchema.extend({ agreeTerms: ZAgreeTermsSchema, invite: ZOptionalInviteSchema })
