import { z } from 'zod'

// Validation messages in Chinese, for every schema of the app (server and browser).
z.config(z.locales.zhCN())
// In the browser, schemas are interpreted rather than compiled with Function(): the pages'
// CSP allows no eval, and zod's probe for it would be reported as a violation.
if (typeof window !== 'undefined') z.config({ jitless: true })

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

export { z }
