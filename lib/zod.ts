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

export { z }
