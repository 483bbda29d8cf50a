import { describe, expect, it } from 'vitest'
import { ok } from '@/lib/http/envelope'
import { jsonList } from '@/lib/http/json-list'

const rows = [
  { id: 'a', name: '画手 "一号"', createdAt: '2026-01-01T08:00:01.123Z', user: { id: 'u1', name: null } },
  { id: 'b', name: '换行\n与 \\ 反斜杠 😀', createdAt: '2026-01-02T00:00:00.000Z', user: null },
]
const texts = rows.map((r) => JSON.stringify(r))

describe('a list whose rows come as JSON text', () => {
  it('answers the same bytes as Response.json of the same value, whatever the rest of the answer', async () => {
    for (const rest of [{ total: 42 }, { nextCursor: null }, { nextCursor: 'eyJr' }, {}]) {
      const list = jsonList(texts, rest)
      const expected = await Response.json({ success: true, data: { list: rows, ...rest } }).text()
      expect(await ok(list).text()).toBe(expected)
      expect(JSON.stringify({ success: true, data: list })).toBe(expected)
    }
  })

  it('can put the rest of the answer before the list, as JSON.stringify of such an object would', async () => {
    for (const rest of [{ total: 42 }, { total: 1, nextCursor: 'eyJr' }, {}]) {
      const list = jsonList(texts, rest, { restFirst: true })
      const expected = await Response.json({ success: true, data: { ...rest, list: rows } }).text()
      expect(await ok(list).text()).toBe(expected)
      expect(JSON.stringify({ success: true, data: list })).toBe(expected)
    }
  })

  it('an empty page is an empty list', async () => {
    const list = jsonList([], { total: 0 })
    expect(list.list).toEqual([])
    expect(await ok(list).text()).toBe('{"success":true,"data":{"list":[],"total":0}}')
  })

  it('gives its rows as objects, and the rest as its own fields', () => {
    const list = jsonList<(typeof rows)[number]>(texts, { total: 2 })
    expect(list.list).toEqual(rows)
    expect(list.total).toBe(2)
    expect(Object.keys(list)).toEqual(['total'])
  })

  it('is sent as JSON with the status and headers it is given', async () => {
    const response = ok(jsonList(texts, { total: 2 }), { status: 201, headers: { 'cache-control': 'no-store' } })
    expect(response.status).toBe(201)
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(Response.json({}).headers.get('content-type')).toBe('application/json')
  })
})
