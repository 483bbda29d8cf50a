import { z } from '@/lib/zod'

/** The params of a route with an [id] segment naming a row with a generated string id (cuid, uuid). */
export const ZIdParamsSchema = z.object({ id: z.string().min(1).max(64) })

/** The params of a route with an [id] segment naming a row with a serial (integer) id. */
export const ZSerialIdParamsSchema = z.object({ id: z.coerce.number().int().positive() })
