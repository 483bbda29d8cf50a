/**
 * A list answer whose rows arrive as JSON text (PostgreSQL wrote them: lib/db/json-rows.ts)
 * and go into the response as they are, with the rest of the answer (`total`, `nextCursor`)
 * as ordinary fields. `list` parses the rows for server code and tests; the response
 * (lib/http/envelope.ts) never does.
 */
export class JsonList<Row> {
  readonly #rows: string
  #parsed: Row[] | undefined

  constructor(rowsJson: string) {
    this.#rows = rowsJson
  }

  get list(): Row[] {
    return (this.#parsed ??= JSON.parse(this.#rows) as Row[])
  }

  /** `{"list":[…],…the rest}`: the same value JSON.stringify gives, without parsing the rows. */
  toJsonText(): string {
    const rest = JSON.stringify({ ...this })
    return rest === '{}' ? `{"list":${this.#rows}}` : `{"list":${this.#rows},${rest.slice(1)}`
  }

  toJSON(): { list: Row[] } {
    return Object.assign({ list: this.list }, this)
  }
}

/**
 * A whole answer PostgreSQL wrote as JSON text (one task, a report), which goes into the
 * response as it is. `value` parses it for server code and tests; the response never does.
 */
export class JsonText<T> {
  readonly #text: string

  constructor(text: string) {
    this.#text = text
  }

  get value(): T {
    return JSON.parse(this.#text) as T
  }

  toJsonText(): string {
    return this.#text
  }

  toJSON(): T {
    return this.value
  }
}

/** The rows' JSON texts (one per row) with the rest of the answer. */
export function jsonList<Row, Rest extends object = { total: number }>(rowTexts: string[], rest: Rest): JsonList<Row> & Rest {
  return Object.assign(new JsonList<Row>(`[${rowTexts.join(',')}]`), rest)
}

/** A list statement's rows: each its page row's JSON, with the total (the empty page: one row, `row` null). */
export type JsonPageRow = { total: number; row: string | null }

/** The page those rows make, with its total. */
export function jsonPage<Row>(rows: JsonPageRow[]): JsonList<Row> & { total: number } {
  return jsonList<Row>(
    rows.flatMap((r) => r.row ?? []),
    { total: rows[0]?.total ?? 0 },
  )
}
