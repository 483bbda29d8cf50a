'use client'

import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { createParser } from 'eventsource-parser'
import { useCallback, useRef, useState } from 'react'
import type { ChatMessageView, ChatModelView, ConversationView, TConversationCreate, TConversationUpdate } from '@/lib/chat/schemas'
import { ApiError, api } from '../request'
import { profileKeys } from './profile'
import { useWrite } from './write'

export type { ChatMessageView, ChatModelView, ConversationView }

export const chatUrls = {
  models: '/api/chat/models',
  conversations: '/api/chat/conversations',
  conversation: (id: string) => `/api/chat/conversations/${id}`,
  messages: (id: string) => `/api/chat/conversations/${id}/messages`,
} as const

export const chatKeys = {
  all: ['chat'] as const,
  models: () => [...chatKeys.all, 'models'] as const,
  conversations: (q = '') => [...chatKeys.all, 'conversations', q] as const,
  conversation: (id: string) => [...chatKeys.all, 'conversations', 'by-id', id] as const,
  messages: (id: string) => [...chatKeys.all, 'messages', id] as const,
}

export function useChatModels() {
  return useQuery({ queryKey: chatKeys.models(), queryFn: () => api.get<ChatModelView[]>(chatUrls.models) })
}

export function useConversations(q: string) {
  return useQuery({
    queryKey: chatKeys.conversations(q),
    queryFn: () => api.get<{ list: ConversationView[]; total: number }>(chatUrls.conversations, { q }),
    placeholderData: (previous) => previous,
  })
}

/** One conversation by id, for one the lists do not hold (`enabled` says when to ask). */
export function useConversation(id: string | null, enabled: boolean) {
  return useQuery({
    queryKey: chatKeys.conversation(id ?? ''),
    // Silent: a missing conversation is already reported by its messages' read.
    queryFn: () => api.get<ConversationView>(chatUrls.conversation(id!), undefined, { silent: true }),
    enabled: Boolean(id) && enabled,
    placeholderData: undefined,
  })
}

export function useConversationMessages(id: string | null) {
  return useQuery({
    queryKey: chatKeys.messages(id ?? ''),
    queryFn: () => api.get<{ list: ChatMessageView[]; total: number }>(chatUrls.messages(id!)),
    enabled: Boolean(id),
    // Never another conversation's messages while this one loads, nor under 新建对话.
    placeholderData: undefined,
  })
}

const conversationsKey = [...chatKeys.all, 'conversations'] as const

export const useCreateConversation = () => useWrite((body: TConversationCreate) => api.post<{ id: string }>(chatUrls.conversations, body), [conversationsKey])

export const useUpdateConversation = () =>
  useWrite(({ id, body }: { id: string; body: TConversationUpdate }) => api.patch<ConversationView>(chatUrls.conversation(id), body), [conversationsKey])

export const useDeleteConversation = () => useWrite((id: string) => api.delete(chatUrls.conversation(id)), [conversationsKey])

export type SendInput = { content: string; images?: string[]; replaceFrom?: string }
/**
 * Where an answer is: streaming (text so far), or finished with the stored message, or failed.
 * While it streams, `kept` is how many stored messages stay on screen before the question:
 * those shown when it was sent, less what a re-sent question replaces.
 */
export type AnswerState =
  | { phase: 'idle' }
  | { phase: 'streaming'; conversationId: string; question: SendInput; text: string; kept: number }
  | { phase: 'failed'; conversationId: string; question: SendInput; errMessage: string }

/**
 * Reads the conversation, the list and the caller's points again once an answer has ended. The
 * conversation's first read may still be under way (a new conversation, opened by this very
 * message): it began before the answer was stored, and invalidating would only wait for it, so
 * the answer would vanish from the page. It is cancelled first, and a fresh read follows.
 */
export async function readAfterAnswer(queryClient: QueryClient, conversationId: string): Promise<void> {
  await queryClient.cancelQueries({ queryKey: chatKeys.messages(conversationId) })
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: chatKeys.messages(conversationId) }),
    queryClient.invalidateQueries({ queryKey: conversationsKey }),
    queryClient.invalidateQueries({ queryKey: profileKeys.all }),
  ])
}

/**
 * Sends a message and follows its answer (docs/PROTOCOLS.md §13.2): `delta` events grow the
 * text, `done` or `error` end it; then the conversation's messages, the list and the
 * caller's points are fetched again. stop() closes the request (the server keeps what arrived).
 * A refusal before the answer (积分不足, a banned word) is handled by the request layer.
 */
export function useChatStream() {
  const queryClient = useQueryClient()
  const [state, setState] = useState<AnswerState>({ phase: 'idle' })
  const controller = useRef<AbortController | null>(null)

  const send = useCallback(
    async (conversationId: string, question: SendInput): Promise<'answered' | 'refused'> => {
      controller.current?.abort()
      const abort = new AbortController()
      controller.current = abort
      let text = ''
      let failure: string | null = null
      const stored = queryClient.getQueryData<{ list: ChatMessageView[] }>(chatKeys.messages(conversationId))?.list ?? []
      const replaced = question.replaceFrom ? stored.findIndex((m) => m.id === question.replaceFrom) : -1
      const kept = replaced >= 0 ? replaced : stored.length
      setState({ phase: 'streaming', conversationId, question, text, kept })
      try {
        await api.stream(
          chatUrls.messages(conversationId),
          question,
          async (body) => {
            const parser = createParser({
              onEvent(event) {
                const data = JSON.parse(event.data) as { content?: string; errMessage?: string }
                if (event.event === 'delta' && data.content) {
                  text += data.content
                  setState({ phase: 'streaming', conversationId, question, text, kept })
                } else if (event.event === 'error') failure = data.errMessage ?? '回答失败，请重试'
              },
            })
            // TextDecoder rather than TextDecoderStream: older WeChat browsers lack the latter.
            const reader = body.getReader()
            const decoder = new TextDecoder()
            for (;;) {
              const { value, done } = await reader.read()
              if (done) break
              parser.feed(decoder.decode(value, { stream: true }))
            }
            parser.feed(decoder.decode())
          },
          abort.signal,
        )
      } catch (error) {
        // Refused before the answer (积分不足, a banned word): the request layer has shown it.
        if (error instanceof ApiError && !abort.signal.aborted) {
          if (controller.current === abort) controller.current = null
          setState({ phase: 'idle' })
          return 'refused'
        }
        if (!abort.signal.aborted) failure = '网络连接中断，已收到的内容会保留'
      }
      if (controller.current === abort) controller.current = null
      // Stopped: the server stores what arrived once it notices the closed request.
      if (abort.signal.aborted) await new Promise((resolve) => setTimeout(resolve, 600))
      await readAfterAnswer(queryClient, conversationId)
      setState(failure ? { phase: 'failed', conversationId, question, errMessage: failure } : { phase: 'idle' })
      return 'answered'
    },
    [queryClient],
  )

  const stop = useCallback(() => controller.current?.abort(), [])
  const clear = useCallback(() => setState({ phase: 'idle' }), [])
  return { state, send, stop, clear }
}
