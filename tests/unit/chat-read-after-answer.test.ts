// After an answer ends, the conversation is read again, even when its first read (begun before
// the answer was stored) is still under way.
import { QueryObserver } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import { makeQueryClient } from '@/lib/api-client/query-client'
import { chatKeys, readAfterAnswer } from '@/lib/api-client/resources/chat'

describe('readAfterAnswer', () => {
  it('a first read still under way is not what the page keeps: a fresh read follows', async () => {
    const client = makeQueryClient()
    const reads: Array<(list: string[]) => void> = []
    const observer = new QueryObserver<string[]>(client, {
      queryKey: chatKeys.messages('c1'),
      queryFn: () => new Promise<string[]>((resolve) => reads.push(resolve)),
    })
    const unsubscribe = observer.subscribe(() => {})
    try {
      await expect.poll(() => reads.length).toBe(1)
      // The answer is stored and streamed to its end while that first read is out.
      const refreshed = readAfterAnswer(client, 'c1')
      await expect.poll(() => reads.length).toBe(2)
      reads[0]!(['question'])
      reads[1]!(['question', 'answer'])
      await refreshed
      expect(client.getQueryData(chatKeys.messages('c1'))).toEqual(['question', 'answer'])
    } finally {
      unsubscribe()
    }
  })
})
