// Crowds for the money races: many users at once, and the tally of many answers.
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { encode } from 'next-auth/jwt'
import pg from 'pg'
import type { APIResponse } from '@playwright/test'
import { E2E_DATABASE_URL_FILE, E2E_SECRETS_FILE } from '../../e2e/support/constants'

export type CrowdUser = { id: string; username: string; auth: { authorization: string } }

/** One query on the e2e database. */
export async function sql<Row extends object>(text: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: readFileSync(E2E_DATABASE_URL_FILE, 'utf8').trim() })
  await client.connect()
  try {
    return (await client.query<Row>(text, values)).rows
  } finally {
    await client.end()
  }
}

let crowds = 0

/**
 * `count` new users with no points and no balance, each with the token a password sign-in
 * would give (lib/auth/token.ts: the user id and token version, under the server's
 * AUTH_SECRET). Inserted with SQL in one statement: hundreds of sign-ins would spend
 * minutes on argon2 at the production cost, and sign-ups are throttled per address.
 */
export async function crowd(count: number, prefix: string): Promise<CrowdUser[]> {
  const secret = (JSON.parse(readFileSync(E2E_SECRETS_FILE, 'utf8')) as { AUTH_SECRET: string }).AUTH_SECRET
  const tag = `${prefix}${Date.now().toString(36)}${crowds++}`
  const users = Array.from({ length: count }, (_, i) => ({ id: `c${randomBytes(12).toString('hex')}`, username: `${tag}_${i}` }))
  await sql(`INSERT INTO "User" ("id", "username", "name", "updatedAt") SELECT id, u, u, now() FROM unnest($1::text[], $2::text[]) AS t(id, u)`, [
    users.map((u) => u.id),
    users.map((u) => u.username),
  ])
  return Promise.all(
    users.map(async (u) => {
      const token = await encode({ token: { sub: u.id, ver: 0 }, secret, maxAge: 24 * 60 * 60 })
      return { ...u, auth: { authorization: `Bearer ${token}` } }
    }),
  )
}

export type Answer = { status: number; message?: string; data?: any }

/** An answer of the API envelope (docs/PRODUCT.md §7.1), for counting. */
export async function answerOf(res: APIResponse): Promise<Answer> {
  const body = (await res.json().catch(() => ({}))) as { data?: unknown; errMessage?: string }
  return { status: res.status(), message: body.errMessage, data: body.data }
}

/** How many answers had each status and message: { "200": 100, "409 该卡密已被使用": 900 }. */
export function tally(answers: Answer[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const a of answers) {
    const key = a.message ? `${a.status} ${a.message}` : String(a.status)
    counts[key] = (counts[key] ?? 0) + 1
  }
  return counts
}

/** Fisher-Yates, so the requests of one wave reach the server in no tidy order. */
export function shuffled<T>(items: T[]): T[] {
  const out = [...items]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1))
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}
