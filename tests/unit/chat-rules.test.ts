import { describe, expect, it } from 'vitest'
import { beijingDayStart, chatCompletionsUrl } from '@/lib/chat/chat-rules'

describe('chatCompletionsUrl', () => {
  it.each([
    ['https://api.openai.com', 'https://api.openai.com/v1/chat/completions'],
    ['https://api.deepseek.com/', 'https://api.deepseek.com/v1/chat/completions'],
    ['https://dashscope.aliyuncs.com/compatible-mode/v1', 'https://dashscope.aliyuncs.com/compatible-mode/v1/chat/completions'],
    ['https://ark.cn-beijing.volces.com/api/v3', 'https://ark.cn-beijing.volces.com/api/v3/chat/completions'],
    ['http://relay.lan:3000/v1/chat/completions', 'http://relay.lan:3000/v1/chat/completions'],
  ])('%s → %s', (base, url) => expect(chatCompletionsUrl(base)).toBe(url))
})

describe('beijingDayStart', () => {
  it('is midnight in Beijing (16:00 UTC the day before), whatever the hour', () => {
    expect(beijingDayStart(new Date('2026-11-24T15:59:59Z')).toISOString()).toBe('2026-11-23T16:00:00.000Z')
    expect(beijingDayStart(new Date('2026-11-24T16:00:00Z')).toISOString()).toBe('2026-11-24T16:00:00.000Z')
    expect(beijingDayStart(new Date('2026-11-25T03:00:00Z')).toISOString()).toBe('2026-11-24T16:00:00.000Z')
  })
})
