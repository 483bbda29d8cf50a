import 'server-only'
import { Prisma } from '@/lib/generated/prisma/client'

/** For each key of a row, the SQL expression of its value; optional keys may be left out. */
export type JsonFields<Row> = { [K in keyof Row]: Prisma.Sql }

const KEY = /^[A-Za-z_][A-Za-z0-9_]*$/

/**
 * The SQL of a JSON object with these keys in this order (row_to_json writes it compactly,
 * as JSON.stringify would). A value may be another jsonObject, a json(b) column or a
 * timestamp through isoText. The list rows are written this way (docs/DECISIONS.md, "List
 * rows written by PostgreSQL"): the web process then neither parses the columns nor
 * serialises the objects.
 */
export function jsonObject<Row>(fields: JsonFields<Row>): Prisma.Sql {
  const columns = Object.entries(fields as Record<string, Prisma.Sql>).map(([key, value]) => {
    if (!KEY.test(key)) throw new Error(`not a JSON key for SQL: ${key}`)
    return Prisma.sql`${value} AS ${Prisma.raw(`"${key}"`)}`
  })
  return Prisma.sql`(SELECT row_to_json("json_fields") FROM (SELECT ${Prisma.join(columns, ', ')}) "json_fields")`
}

/** jsonObject, or null where `present` is false (a task with no wall entry, a card no one holds). */
export function jsonObjectOrNull<Row>(present: Prisma.Sql, fields: JsonFields<Row>): Prisma.Sql {
  return Prisma.sql`CASE WHEN ${present} THEN ${jsonObject(fields)} END`
}

/** A row as JSON text for jsonList (lib/http/json-list.ts): null for the empty page's row of the total alone. */
export function jsonRowText<Row>(present: Prisma.Sql, fields: JsonFields<Row>): Prisma.Sql {
  return Prisma.sql`(${jsonObjectOrNull(present, fields)})::text`
}

/**
 * A TIMESTAMP (UTC, millisecond precision) as the text its Date has in JSON,
 * `2026-01-01T08:00:01.123Z` (what isoTimestamp in ./read-rows.ts makes of pg's text).
 */
export function isoText(column: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
}

/**
 * The JSON texts of a group's rows as one JSON array text, `[…]` in this order (`[]` for no
 * row), as JSON.stringify writes an array: json_agg would put a space after each comma. The
 * web process then reads one text instead of a row per element.
 */
export function jsonArrayText(row: Prisma.Sql, orderBy: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`coalesce('[' || string_agg((${row})::text, ',' ORDER BY ${orderBy}) || ']', '[]')`
}

/**
 * A JSON object text of a group's keys and numbers, `{"a":1,"b":2}` in key order (`{}` for no
 * row), as JSON.stringify writes it: json_object_agg would put spaces around each colon.
 */
export function jsonMapText(key: Prisma.Sql, value: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`coalesce('{' || string_agg(to_json(${key})::text || ':' || (${value})::text, ',' ORDER BY ${key}) || '}', '{}')`
}
