import { describe, expect, it } from 'vitest'
import { malformedReason, maskKey, normalizeKey } from '@/lib/cards/card-key'
import { judgeCards } from '@/lib/cards/check-pending-cards'
import { parseImportText } from '@/lib/cards/parse-import-text'

describe('maskKey (docs/PRODUCT.md §5: first 3, six stars, last 3)', () => {
  it.each([
    ['ABCDEFGH1234', 'ABC******234'],
    ['1234567', '123******567'],
    ['卡密中文测试一下', '卡密中******试一下'],
  ])('%s → %s', (key, masked) => expect(maskKey(key)).toBe(masked))

  it('never shows a short key whole', () => {
    expect(maskKey('ABCD')).toBe('A******D')
    expect(maskKey('ABCDEF')).toBe('A******F')
  })
})

describe('parseImportText (docs/PRODUCT.md §5)', () => {
  it('splits by line, trims and drops empty lines', () => {
    expect(parseImportText('  AAA-1 \n\nBBB-2\r\n   \n\tCCC-3\t')).toEqual(['AAA-1', 'BBB-2', 'CCC-3'])
  })
  it('gives nothing for blank text', () => {
    expect(parseImportText('  \n \r\n\t')).toEqual([])
  })
  it('keeps inner spaces for the server to judge', () => {
    expect(parseImportText('AB CD')).toEqual(['AB CD'])
  })
})

describe('malformedReason', () => {
  it.each(['ABCD', 'x'.repeat(128), 'Ab-3_9!', '卡密四字'])('accepts %s', (key) => expect(malformedReason(key)).toBeNull())
  it.each(['ABC', 'x'.repeat(129), 'AB CD', 'AB\tCD', 'AB\u200bCD', 'AB\u0007CD'])('refuses %j', (key) => expect(malformedReason(key)).toMatch(/^格式不正确/))
  it('trims only the ends', () => expect(normalizeKey('  AB CD \n')).toBe('AB CD'))
  it.each(['=1+2*3', '+86-CARD', '-DANGER1', '@ATKEY12'])('refuses %j: it starts like a spreadsheet formula, and the export writes keys exactly', (key) =>
    expect(malformedReason(key)).toBe('格式不正确：卡密不能以 = + - @ 开头'),
  )
  it.each(['A=1+2', 'K-@+=', '1-2-3-4'])('accepts %j: formula characters after the start are harmless', (key) => expect(malformedReason(key)).toBeNull())
})

describe('judgeCards (PENDING → SUCCESS or FAIL)', () => {
  const card = (id: number, key: string | null, batchId = 1, keyHash = `h:${key}`) => ({ id, cardNo: `C${String(id).padStart(8, '0')}`, keyHash, batchId, key })

  it('makes well-formed, unique keys ready', () => {
    expect(judgeCards([card(1, 'AAAA1'), card(2, 'BBBB2')], new Map())).toEqual([
      { id: 1, ok: true },
      { id: 2, ok: true },
    ])
  })

  it('fails the later copy of a key in the same batch, naming the first', () => {
    const [first, second] = judgeCards([card(1, 'AAAA1'), card(2, 'AAAA1')], new Map())
    expect(first).toEqual({ id: 1, ok: true })
    expect(second).toEqual({ id: 2, ok: false, reason: '与同批次卡密重复（卡号 C00000001）' })
  })

  it('fails a copy across batches in one chunk as a duplicate of an existing key', () => {
    expect(judgeCards([card(1, 'AAAA1', 1), card(2, 'AAAA1', 2)], new Map())[1]).toEqual({ id: 2, ok: false, reason: '与已有卡密重复（卡号 C00000001）' })
  })

  it('fails a key that a ready card of another batch already has as 已有', () => {
    expect(judgeCards([card(5, 'AAAA1', 3)], new Map([['h:AAAA1', { cardNo: 'C00000002', batchId: 2 }]]))).toEqual([
      { id: 5, ok: false, reason: '与已有卡密重复（卡号 C00000002）' },
    ])
  })

  it('fails a key made ready by an earlier chunk of the same batch as 同批次', () => {
    expect(judgeCards([card(1500, 'AAAA1', 3)], new Map([['h:AAAA1', { cardNo: 'C00000002', batchId: 3 }]]))).toEqual([
      { id: 1500, ok: false, reason: '与同批次卡密重复（卡号 C00000002）' },
    ])
  })

  it('fails malformed and unreadable keys, and a malformed first copy does not block a good one', () => {
    const verdicts = judgeCards([card(1, 'A B', 1, 'h:x'), card(2, null), card(3, 'GOOD1', 1, 'h:x')], new Map())
    expect(verdicts[0]).toMatchObject({ ok: false, reason: expect.stringMatching(/^格式不正确/) })
    expect(verdicts[1]).toEqual({ id: 2, ok: false, reason: '卡密无法解密，请重新导入' })
    expect(verdicts[2]).toEqual({ id: 3, ok: true })
  })
})
