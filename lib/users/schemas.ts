import { z } from '@/lib/zod'
import { ZPasswordSchema } from '@/lib/auth/password'
import { MOBILE_MESSAGE, MOBILE_PATTERN, normalizeMobile } from './mobile'
import { ZOptionalInviteSchema } from '@/lib/invites/schemas'

export const ZUsernameSchema = z
  .string({ error: '请输入用户名' })
  .trim()
  .regex(/^[a-zA-Z0-9_]{3,32}$/, '用户名为 3-32 位字母、数字或下划线')
  .transform((v) => v.toLowerCase())

export const ZDisplayNameSchema = z.string().trim().min(1, '昵称不能为空').max(32, '昵称最多 32 个字符')

/** A mainland mobile number; spaces, dashes and a leading +86 are dropped first. */
export const ZMobileSchema = z.string({ error: '请输入手机号' }).transform(normalizeMobile).pipe(z.string().regex(MOBILE_PATTERN, MOBILE_MESSAGE))

/** The user ticked 我已阅读并同意《用户协议》和《隐私政策》 (optional: other clients may leave it out). */
export const ZAgreeTermsSchema = z.boolean({ error: '用户协议同意项只能是 true 或 false' }).optional()

/** `invite`: the code from a /login?invite= link (docs/PRODUCT.md §17); it binds the new account when it can. */
export const ZCredentialsSchema = z
  .object({ username: ZUsernameSchema, password: ZPasswordSchema, agreeTerms: ZAgreeTermsSchema, invite: ZOptionalInviteSchema })
  .strict()
export type TCredentials = z.infer<typeof ZCredentialsSchema>

export const ZLoginSchema = z.object({ username: ZUsernameSchema, password: z.string({ error: '请输入密码' }).min(1, '请输入密码').max(128) }).strict()

export const ZProfileUpdateSchema = z.object({ name: ZDisplayNameSchema }).strict()

export const ZPasswordChangeSchema = z.object({ currentPassword: z.string().max(128), newPassword: ZPasswordSchema }).strict()

const ZRoleSchema = z.enum(['ADMIN', 'MANAGER', 'USER'])

export const ZAdminUserCreateSchema = z
  .object({
    username: ZUsernameSchema,
    name: ZDisplayNameSchema,
    password: ZPasswordSchema,
    role: ZRoleSchema.default('USER'),
    mobile: ZMobileSchema.or(z.literal('').transform(() => undefined)).optional(),
  })
  .strict()
export type TAdminUserCreate = z.infer<typeof ZAdminUserCreateSchema>

export const ZAdminUserUpdateSchema = z
  .object({
    name: ZDisplayNameSchema.optional(),
    role: ZRoleSchema.optional(),
    mobile: ZMobileSchema.nullable()
      .or(z.literal('').transform(() => null))
      .optional(),
    banned: z.boolean().optional(),
    password: ZPasswordSchema.optional(),
  })
  .strict()
export type TAdminUserUpdate = z.infer<typeof ZAdminUserUpdateSchema>

export const ZUserListQuerySchema = z.object({
  keyword: z.string().trim().max(64).optional(),
  role: ZRoleSchema.optional(),
})
