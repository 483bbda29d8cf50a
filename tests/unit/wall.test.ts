import { describe, expect, it } from 'vitest'
import { columnsFor, placeInColumns } from '@/components/wall/masonry'
import { worksOfPages, type WallItemJson } from '@/lib/api-client/resources/wall'
import { decodeCursor, encodeCursor } from '@/lib/wall/cursor'
import { makeSameHref } from '@/lib/wall/labels'
import { ZWallQuerySchema } from '@/lib/wall/schemas'

describe('the wall masonry', () => {
  it('puts each work in the shortest column by its aspect ratio', () => {
    const works = [
      { id: 'tall', width: 100, height: 300 },
      { id: 'a', width: 100, height: 100 },
      { id: 'b', width: 100, height: 100 },
      { id: 'c', width: 100, height: 100 },
      { id: 'wide', width: 200, height: 100 },
    ]
    expect(placeInColumns(works, 2).map((c) => c.map((w) => w.id))).toEqual([
      ['tall', 'wide'],
      ['a', 'b', 'c'],
    ])
    expect(placeInColumns(works, 3).map((c) => c.map((w) => w.id))).toEqual([['tall'], ['a', 'c'], ['b', 'wide']])
  })

  it('appending a page never moves the works placed before', () => {
    const first = Array.from({ length: 30 }, (_, i) => ({ id: `w${i}`, width: 512, height: 512 + (i % 5) * 100 }))
    const more = Array.from({ length: 30 }, (_, i) => ({ id: `m${i}`, width: 512, height: 400 + (i % 3) * 200 }))
    const before = placeInColumns(first, 4)
    const after = placeInColumns([...first, ...more], 4)
    before.forEach((column, c) => expect(after[c]!.slice(0, column.length)).toEqual(column))
  })

  it('two columns on a phone, up to five on a wide screen', () => {
    expect([360, 700, 1000, 1280].map(columnsFor)).toEqual([2, 3, 4, 5])
  })
})

describe('wall cursors and queries', () => {
  it('a cursor names the last row; anything else is not one', () => {
    const cursor = { key: 1_764_000_000_123, id: 'cmabc123' }
    expect(decodeCursor(encodeCursor(cursor), 'new')).toEqual(cursor)
    expect(decodeCursor(encodeCursor({ key: 0, id: 'x' }), 'hot')).toEqual({ key: 0, id: 'x' })
    for (const bad of [
      '',
      'not-a-cursor',
      Buffer.from('[1]').toString('base64url'),
      Buffer.from('["1","x"]').toString('base64url'),
      Buffer.from('[1.5,"x"]').toString('base64url'),
      Buffer.from('[-1,"x"]').toString('base64url'),
      Buffer.from('[1,"x\\u0000"]').toString('base64url'),
      Buffer.from('[1,"x y"]').toString('base64url'),
    ]) {
      expect(decodeCursor(bad, 'new')).toBeNull()
    }
    // A key past what its order can hold: no Date that far ahead, no like count that large.
    expect(decodeCursor(encodeCursor({ key: 9_000_000_000_000_000, id: 'x' }), 'new')).toBeNull()
    expect(decodeCursor(encodeCursor({ key: 3_000_000_000, id: 'x' }), 'hot')).toBeNull()
    expect(decodeCursor(encodeCursor({ key: 3_000_000_000, id: 'x' }), 'new')).toEqual({ key: 3_000_000_000, id: 'x' })
  })

  it('a work that comes again on a later page (its likes changed meanwhile) is shown once, where it came first', () => {
    const work = (id: string) => ({ id }) as WallItemJson
    expect(worksOfPages([{ list: [work('a'), work('b')] }, { list: [work('b'), work('c')] }]).map((w) => w.id)).toEqual(['a', 'b', 'c'])
  })

  it('limit is 1-60, sort new or hot, type one of the model kinds', () => {
    expect(ZWallQuerySchema.parse({})).toMatchObject({ limit: 30, sort: 'new' })
    expect(ZWallQuerySchema.safeParse({ limit: '60' }).success).toBe(true)
    expect(ZWallQuerySchema.safeParse({ limit: '61' }).success).toBe(false)
    expect(ZWallQuerySchema.safeParse({ sort: 'old' }).success).toBe(false)
    expect(ZWallQuerySchema.safeParse({ type: 'VIDEO' }).success).toBe(true)
    expect(ZWallQuerySchema.safeParse({ type: 'VIDEO_TEXT2VIDEO' }).success).toBe(false)
  })

  it('做同款 opens the creation page of the work’s kind', () => {
    expect(makeSameHref({ id: 'w1', type: 'STABLE_DIFFUSION' })).toBe('/text2img?same=w1')
    expect(makeSameHref({ id: 'w2', type: 'MID_JOURNEY' })).toBe('/mj?same=w2')
    expect(makeSameHref({ id: 'w3', type: 'VIDEO' })).toBe('/ai_video?same=w3')
  })
})
