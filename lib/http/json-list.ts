/**
 * A list answer whose rows arrive as JSON text (PostgreSQL wrote them: lib/db/json-rows.ts)
 * and go into the response as they are, with the rest of the answer (`total`, `nextCursor`)
 * as ordinary fields. `list` parses the rows for server code and tests; the response
 * (lib/http/envelope.ts) never does.
 */
export class JsonList<Row> {
  readonly #rows: string
  readonly #restFirst: boolean
  #parsed: Row[] | undefined

  /** `restFirst`: the rest of the answer before `list` (`{"total":…,"list":[…]}`), for lists that always answered so. */
  constructor(rowsJson: string, { restFirst = false } = {}) {
    this.#rows = rowsJson
    this.#restFirst = restFirst
  }

  get list(): Row[] {
    return (this.#parsed ??= JSON.parse(this.#rows) as Row[])
  }

  /** `{"list":[…],…the rest}` (or the rest first): the same text JSON.stringify gives, without parsing the rows. */
  toJsonText(): string {
    const rest = JSON.stringify({ ...this })
    if (rest === '{}') return `{"list":${this.#rows}}`
    return this.#restFirst ? `${rest.slice(0, -1)},"list":${this.#rows}}` : `{"list":${this.#rows},${rest.slice(1)}`
  }

  toJSON(): { list: Row[] } {
    return this.#restFirst ? { ...this, list: this.list } : Object.assign({ list: this.list }, this)
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
export function jsonList<Row, Rest extends object = { total: number }>(
  rowTexts: string[],
  rest: Rest,
  order: { restFirst?: boolean } = {},
): JsonList<Row> & Rest {
  return Object.assign(new JsonList<Row>(`[${rowTexts.join(',')}]`, order), rest)
}

/** A list statement's rows: each its page row's JSON, with the total (the empty page: one row, `row` null). */
export type JsonPageRow = { total: number; row: string | null }

/** The page those rows make, with its total. */
export function jsonPage<Row>(rows: JsonPageRow[], order: { restFirst?: boolean } = {}): JsonList<Row> & { total: number } {
  return jsonList<Row>(
    rows.flatMap((r) => r.row ?? []),
    { total: rows[0]?.total ?? 0 },
    order,
  )
}
