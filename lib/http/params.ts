import { z } from '@/lib/zod'

/** The params of a route with an [id] segment naming a row with a generated string id (cuid, uuid). */
export const ZIdParamsSchema = z.object({ id: z.string().min(1).max(64) })

/** The largest serial (int4) id: a larger number names no row, and PostgreSQL refuses it as a parameter (a 500). */
export const MAX_SERIAL_ID = 2_147_483_647

/** A serial id in a path or query (a string there). */
export const zSerialId = () => z.coerce.number().int().positive().max(MAX_SERIAL_ID)

/** A serial id as a JSON body's number. */
export const zSerialIdNumber = () => z.number().int().positive().max(MAX_SERIAL_ID)

/** The params of a route with an [id] segment naming a row with a serial (integer) id. */
export const ZSerialIdParamsSchema = z.object({ id: zSerialId() })
