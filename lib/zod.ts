import { z } from 'zod'

// Validation messages in Chinese, for every schema of the app. Only the server parses with
// zod: browser code never reaches this module (tests/unit/layers.test.ts).
z.config(z.locales.zhCN())

/**
 * The PATCH schema of a create schema: every field optional and none defaulted. A plain
 * `.partial()` keeps the defaults, so a PATCH that leaves a field out would reset it.
 */
export function updateSchemaOf<Shape extends z.ZodRawShape>(create: z.ZodObject<Shape>) {
  const shape = Object.fromEntries(Object.entries(create.shape).map(([key, field]) => [key, field instanceof z.ZodDefault ? field.removeDefault() : field]))
  return z
    .object(shape as { [K in keyof Shape]: Shape[K] extends z.ZodDefault<infer Inner> ? Inner : Shape[K] })
    .partial()
    .strict()
}

/**
 * The address of an outside service an operator types (a backend, a chat API): http(s), one
 * that URL can read, and no user:password@, which would be stored in clear and shown to every
 * console user (it belongs in the key). '' passes: each schema says whether it may be empty.
 */
export const serviceAddress = z
  .string()
  .trim()
  .max(500)
  .refine((v) => v === '' || /^https?:\/\/[^\s]+$/.test(v), '接口地址需以 http:// 或 https:// 开头')
  .refine((v) => v === '' || URL.canParse(v), '接口地址格式不正确')
  .refine((v) => !URL.canParse(v) || (!new URL(v).username && !new URL(v).password), '接口地址不能包含用户名和密码，请把“用户名:密码”填在密钥里')

/**
 * A picture's address: a path on this site or an http(s) URL ('' passes). `//host` and
 * `/\host` are other sites to a browser (and whitespace inside is dropped by it), so a path
 * must be a plain one: the logo also becomes the favicon redirect and the page icon.
 */
export function isImageAddress(value: string): boolean {
  if (value === '') return true
  if (/[\s\\]/.test(value.replace(/^https?:\/\//, ''))) return false
  if (value.startsWith('/')) return !value.startsWith('//')
  return /^https?:\/\/[^/]/.test(value)
}
export const imageAddress = z.string().trim().max(500).refine(isImageAddress, '请输入以 / 开头的本站路径或 http(s):// 开头的地址')

export { z }
