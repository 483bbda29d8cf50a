// GET /api/admin/cards/export: the one place full keys leave the server. ADMIN only,
// audited, CSV (UTF-8 with BOM) of exactly the cards that can still be handed out.
import { beforeAll, describe, expect, it } from 'vitest'
import * as assignRoute from '@/app/api/admin/cards/[id]/assign/route'
import * as disableRoute from '@/app/api/admin/cards/[id]/disable/route'
import * as exportRoute from '@/app/api/admin/cards/export/route'
import * as listRoute from '@/app/api/admin/cards/route'
import * as redeemRoute from '@/app/api/my-cards/redeem/route'
import { db } from '@/lib/db'
import { callRoute } from '../helpers/call-route'
import { freshKeys, importKeys, insertCards, readyCards, settleCards } from '../helpers/cards-fixtures'
import { expectFail, expectOk } from '../helpers/expect-response'
import { quickUser, type QuickUser } from '../helpers/ledger-fixtures'
import { at, first } from '../helpers/present'

const ADMIN_IP = '10.7.7.7'
const HEADER = ['卡号', '卡密', '积分', '过期时间', '批次备注']

/** Calls the export handler as Next.js would; the body is CSV, not the JSON envelope. */
async function exportCsv(token: string | undefined, query: Record<string, string | number> = {}) {
  const url = new URL('http://localhost/api/admin/cards/export')
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v))
  const headers = new Headers({ 'x-client-ip': ADMIN_IP })
  if (token) headers.set('authorization', `Bearer ${token}`)
  const res = await exportRoute.GET(new Request(url, { headers }))
  const bytes = new Uint8Array(await res.arrayBuffer())
  return { res, bytes, text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes) }
}

/** A small RFC 4180 reader: quoted cells, doubled quotes, CRLF rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let cell = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"'
        i++
      } else if (ch === '"') quoted = false
      else cell += ch
    } else if (ch === '"') quoted = true
    else if (ch === ',') {
      row.push(cell)
      cell = ''
    } else if (ch === '\r' && text[i + 1] === '\n') {
      rows.push([...row, cell])
      row = []
      cell = ''
      i++
    } else cell += ch
  }
  if (cell || row.length) rows.push([...row, cell])
  return rows
}

let admin: QuickUser
let manager: QuickUser
let user: QuickUser
const expected = new Map<string, { key: string; points: number; expiry: string; note: string }>() // by cardNo
let notExported: string[] = []
/** Ready keys an earlier version let in although they start like a formula. */
const LEGACY_FORMULA_KEYS = ['=1+2*3', '+CMD-12', '-DANGER1', '@ATKEY12']

beforeAll(async () => {
  admin = await quickUser({ role: 'ADMIN' })
  manager = await quickUser({ role: 'MANAGER' })
  user = await quickUser()

  // Exported: plain keys, keys with quotes, commas and formula characters after the start,
  // and a batch note a spreadsheet would run as a formula.
  const plain = await readyCards(admin, freshKeys(3, 'EXP'), { points: 25, note: '渠道A' })
  const tricky = await readyCards(admin, ['QU"OTE-12', 'A,B,C,D1', "K'=1+2@-3", 'Z-0000=1'], { points: 9, note: '=HYPERLINK("http://x")' })
  // 2030-12-31 23:59 in Beijing, written in Beijing time whatever the server's time zone.
  const expiring = await readyCards(admin, freshKeys(1, 'LATER'), { points: 3, expiresAt: '2030-12-31T15:59:00.000Z' })
  for (const c of [...plain, ...tricky, ...expiring]) {
    expected.set(c.cardNo, {
      key: c.key,
      points: c.points,
      expiry: c.expiresAt ? '2030-12-31 23:59:00' : '',
      note: (await db().cardBatch.findUniqueOrThrow({ where: { id: c.batchId } })).note ?? '',
    })
  }

  // Not exported: used, held, disabled, expired, failed, pending.
  const [used, held, disabled] = await readyCards(admin, freshKeys(3, 'GONE'))
  expectOk(await callRoute(redeemRoute.POST, { token: user.token, body: { cardKey: used.key } }))
  expectOk(await callRoute(assignRoute.POST, { token: admin.token, params: { id: String(held.id) }, body: { userId: user.id } }))
  expectOk(await callRoute(disableRoute.POST, { token: admin.token, params: { id: String(disabled.id) }, body: { disabled: true } }))
  const [expired] = await readyCards(admin, freshKeys(1, 'GONE'), { expiresAt: new Date(Date.now() + 60_000).toISOString() })
  await db().card.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1_000) } })
  const failedKey = 'GONE FAILED'
  await importKeys(admin, [failedKey])
  await settleCards()
  const [pendingKey] = freshKeys(1, 'GONEP')
  await importKeys(admin, [pendingKey])
  // Withheld: ready cards whose key starts like a formula (left by an earlier version).
  await insertCards(LEGACY_FORMULA_KEYS, { status: 'SUCCESS' })
  notExported = [used.key, held.key, disabled.key, expired.key, failedKey, pendingKey, ...LEGACY_FORMULA_KEYS]
})

describe('GET /api/admin/cards/export', () => {
  it('answers CSV as a download, UTF-8 with a BOM, never cached', async () => {
    const { res, bytes } = await exportCsv(admin.token)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="cards-all-\d{4}-\d{2}-\d{2}\.csv"$/)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
  })

  it('has the header, then exactly the ready, unused, unheld, enabled, unexpired cards with their full keys, exactly', async () => {
    const { text } = await exportCsv(admin.token)
    expect(text.startsWith('\uFEFF"卡号","卡密","积分","过期时间","批次备注"\r\n')).toBe(true)
    expect(text.endsWith('\r\n')).toBe(true)
    const [header, ...rows] = parseCsv(text.slice(1))
    expect(header).toEqual(HEADER)
    const unquoteNote = (cell: string | undefined) => cell?.replace(/^'(?=[=+\-@])/, '')
    const got = new Map(rows.map(([cardNo, key, points, expiry, note]) => [cardNo, { key, points: Number(points), expiry, note: unquoteNote(note) }]))
    expect(got).toEqual(expected)
    for (const key of notExported) expect(text).not.toContain(key)
    // Oldest first.
    const numbers = rows.map((r) => r[0])
    expect(numbers).toEqual([...numbers].sort())
  })

  it('writes each key cell exactly (quoted, quotes doubled), and no cell of the file starts like a formula', async () => {
    const { text, res } = await exportCsv(admin.token)
    const lines = text.split('\r\n')
    expect(lines.some((l) => l.includes(',"QU""OTE-12",'))).toBe(true)
    expect(lines.some((l) => l.includes(',"A,B,C,D1",'))).toBe(true)
    expect(lines.some((l) => l.includes(`,"K'=1+2@-3",`))).toBe(true)
    // The batch note is free text: it keeps its leading ' against formulas.
    expect(lines.filter((l) => l.endsWith('"\'=HYPERLINK(""http://x"")"'))).toHaveLength(4)
    const cells = parseCsv(text.slice(1)).flat()
    expect(cells.filter((c) => /^[=+\-@]/.test(c))).toEqual([])
    // The ready keys starting like a formula (left by an earlier version) are withheld, not altered.
    for (const key of LEGACY_FORMULA_KEYS) expect(text).not.toContain(key.slice(1))
    expect(res.headers.get('x-cards-withheld')).toBe(String(LEGACY_FORMULA_KEYS.length))
  })

  it('an exported key is the key: redeeming the exported text works', async () => {
    const { text } = await exportCsv(admin.token)
    const [, ...rows] = parseCsv(text.slice(1))
    const row = rows.find(([, key]) => key === "K'=1+2@-3")!
    const redeemer = await quickUser()
    const { points } = expectOk(await callRoute(redeemRoute.POST, { token: redeemer.token, body: { cardKey: row[1] } }))
    expect(points).toBe(9)
    expect(expected.get(at(row, 0))).toMatchObject({ key: "K'=1+2@-3" })
    expected.delete(at(row, 0)) // used now: later exports leave it out
  })

  it('writes an audit record cards.export with the count, and exports one batch when asked', async () => {
    const before = await db().adminAuditLog.count({ where: { action: 'cards.export' } })
    await exportCsv(admin.token)
    const audit = await db().adminAuditLog.findFirstOrThrow({ where: { action: 'cards.export' }, orderBy: { id: 'desc' } })
    expect(audit).toMatchObject({
      actorId: admin.id,
      actorRole: 'ADMIN',
      targetType: 'CardBatch',
      targetId: null,
      ip: ADMIN_IP,
      after: { count: expected.size, withheld: LEGACY_FORMULA_KEYS.length },
    })
    expect(JSON.stringify(audit)).not.toContain(first([...expected.values()]).key)

    const [one] = await readyCards(admin, freshKeys(1, 'SOLO'))
    const { text } = await exportCsv(admin.token, { batchId: one.batchId })
    const rows = parseCsv(text.slice(1)).slice(1)
    expect(rows).toEqual([[one.cardNo, one.key, String(one.points), '', '']])
    const batchAudit = await db().adminAuditLog.findFirstOrThrow({ where: { action: 'cards.export' }, orderBy: { id: 'desc' } })
    expect(batchAudit).toMatchObject({ targetId: String(one.batchId), after: { count: 1, withheld: 0 } })
    expect(await db().adminAuditLog.count({ where: { action: 'cards.export' } })).toBe(before + 2)
  })

  it('an export with nothing to give is just the header', async () => {
    const { batchId } = await importKeys(admin, freshKeys(1, 'NONE')) // still pending
    const { text } = await exportCsv(admin.token, { batchId })
    expect(text).toBe('\uFEFF"卡号","卡密","积分","过期时间","批次备注"\r\n')
  })

  it('is for ADMIN only: MANAGER and USER get 403, no token 401, and nothing is audited', async () => {
    const before = await db().adminAuditLog.count()
    for (const [token, status] of [
      [manager.token, 403],
      [user.token, 403],
      [undefined, 401],
    ] as const) {
      const { res, text } = await exportCsv(token)
      expect(res.headers.get('content-type')).toMatch(/^application\/json/)
      expectFail({ status: res.status, body: JSON.parse(text) }, status)
      for (const { key } of expected.values()) expect(text).not.toContain(key)
    }
    expect(await db().adminAuditLog.count()).toBe(before)
  })

  it('refuses a bad batch id with 400', async () => {
    const { res, text } = await exportCsv(admin.token, { batchId: 'abc' })
    expectFail({ status: res.status, body: JSON.parse(text) }, 400, '批次的格式不正确')
    const bad = await exportCsv(admin.token, { onlyNew: 'yes' })
    expect(bad.res.status).toBe(400)
  })

  it('marks what it writes: an exported key is never assigned, and onlyNew gives each key out once', async () => {
    const cards = await readyCards(admin, freshKeys(3, 'ONCE'))
    const batchId = at(cards, 0).batchId
    const keysIn = (text: string) =>
      parseCsv(text.slice(1))
        .slice(1)
        .map((row) => row[1])

    const firstNew = await exportCsv(admin.token, { batchId, onlyNew: 'true' })
    expect(keysIn(firstNew.text)).toEqual(cards.map((c) => c.key))
    expect(firstNew.res.headers.get('x-cards-exported')).toBe('3')
    const marked = await db().card.findMany({ where: { batchId }, select: { exportedAt: true } })
    expect(marked.every((c) => c.exportedAt instanceof Date)).toBe(true)

    // The key may have been sold: handing it to a user as well would sell it twice.
    const assigned = await callRoute(assignRoute.POST, { token: admin.token, params: { id: String(at(cards, 0).id) }, body: { userId: user.id } })
    expectFail(assigned, 409, '该卡密已导出，可能已经售出，不能再分配给用户')
    expect((await db().card.findUniqueOrThrow({ where: { id: at(cards, 0).id } })).holderId).toBeNull()

    // A second export of new keys has none; the whole list still has them (a lost file), marked once.
    const again = await exportCsv(admin.token, { batchId, onlyNew: 'true' })
    expectFail({ status: again.res.status, body: JSON.parse(again.text) }, 409, '没有未导出过的可用卡密')
    await exportCsv(admin.token, { onlyNew: 'true' }) // every other test's cards, so that only the next one is new
    const [more] = await readyCards(admin, freshKeys(1, 'ONCE'))
    const onlyNewOnes = await exportCsv(admin.token, { onlyNew: 'true' })
    expect(keysIn(onlyNewOnes.text)).toEqual([more.key])
    const exportedAt = (await db().card.findUniqueOrThrow({ where: { id: at(cards, 0).id } })).exportedAt
    const whole = await exportCsv(admin.token, { batchId })
    expect(keysIn(whole.text)).toEqual(cards.map((c) => c.key))
    expect((await db().card.findUniqueOrThrow({ where: { id: at(cards, 0).id } })).exportedAt).toEqual(exportedAt)

    // The console list shows when each was exported.
    const listed = expectOk(await callRoute(listRoute.GET, { token: admin.token, query: { batchId: String(batchId), page: '1', pageSize: '10' } }))
    expect(listed.list.map((c: { exportedAt: string | null }) => c.exportedAt)).toEqual(cards.map(() => exportedAt!.toISOString()))
  })

  it('an assign racing an export: the card is either exported or assigned, never both', async () => {
    for (let round = 0; round < 10; round++) {
      const [card] = await readyCards(admin, freshKeys(1, `RACE${round}`))
      const [exported, assigned] = await Promise.all([
        exportCsv(admin.token, { batchId: card.batchId, onlyNew: 'true' }),
        callRoute(assignRoute.POST, { token: admin.token, params: { id: String(card.id) }, body: { userId: user.id } }),
      ])
      const inFile = exported.res.status === 200 && exported.text.includes(card.key)
      expect([inFile, assigned.status === 200], `round ${round}`).toSatisfy(([a, b]: boolean[]) => a !== b)
      const row = await db().card.findUniqueOrThrow({ where: { id: card.id } })
      expect(row.exportedAt !== null).toBe(inFile)
      expect(row.holderId !== null).toBe(!inFile)
    }
  })

  it('two exports of new keys at once never give the same key twice', async () => {
    const cards = await readyCards(admin, freshKeys(20, 'TWICE'))
    const batchId = at(cards, 0).batchId
    const answers = await Promise.all([0, 1, 2].map(() => exportCsv(admin.token, { batchId, onlyNew: 'true' })))
    const keys = answers
      .filter((a) => a.res.status === 200)
      .flatMap((a) =>
        parseCsv(a.text.slice(1))
          .slice(1)
          .map((row) => row[1]),
      )
    expect(keys.sort()).toEqual(cards.map((c) => c.key).sort())
    expect(answers.filter((a) => a.res.status !== 200).every((a) => a.res.status === 409)).toBe(true)
  })
})
