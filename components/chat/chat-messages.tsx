'use client'

import { useEffect, useRef, useState } from 'react'
import type { AnswerState, ChatMessageView } from '@/lib/api-client/resources/chat'
import { toast } from '@/lib/ui/toast-store'
import { Button } from '@/components/ui/button'
import { Textarea } from '@/components/ui/field'
import { Loading } from '@/components/ui/spinner'
import { Markdown } from './markdown'

type Props = {
  conversationId: string | null
  messages: ChatMessageView[] | undefined
  isLoading: boolean
  isError: boolean
  state: AnswerState
  busy: boolean
  /** Sends again from this user message (regenerate, or edit and resend); false when refused before an answer. */
  onResend: (from: ChatMessageView, content: string) => Promise<boolean>
}

async function copy(text: string) {
  try {
    await navigator.clipboard.writeText(text)
    toast.success('已复制')
  } catch {
    toast.error('复制失败，请手动选择文字复制')
  }
}

/** The conversation: stored messages, then the question being answered and the answer as it streams. */
export function ChatMessages({ conversationId, messages, isLoading, isError, state, busy, onResend }: Props) {
  const bottom = useRef<HTMLDivElement>(null)
  // The edited text lives here: the box is out of sight while its message is re-sent, and a
  // refusal (积分不足, a banned word) brings it back as the user left it.
  const [editing, setEditing] = useState<{ id: string; text: string } | null>(null)
  const pending = state.phase !== 'idle' && state.conversationId === conversationId ? state : null
  // While an answer streams, the stored messages are those shown when its question was sent
  // (less what a re-sent one replaces): a read landing meanwhile may hold the question already.
  const shown = pending?.phase === 'streaming' ? messages?.slice(0, pending.kept) : messages
  const streamingText = pending?.phase === 'streaming' ? pending.text : ''

  useEffect(() => {
    bottom.current?.scrollIntoView({ block: 'end' })
  }, [shown?.length, streamingText, pending?.phase])

  // A question being answered shows at once, before the conversation's first read arrives.
  if (isLoading && !pending) return <Loading className="flex-1" />
  if (isError && !pending) return <p className="flex flex-1 items-center justify-center text-sm text-red-400">消息加载失败，请刷新重试</p>

  const lastUserIndex = shown ? shown.findLastIndex((m) => m.role === 'USER') : -1
  const empty = !shown?.length && !pending
  return (
    <div className="flex-1 overflow-y-auto px-3 py-4 sm:px-6" aria-live="polite">
      {empty && (
        <div className="flex h-full flex-col items-center justify-center gap-2 text-center text-zinc-400">
          <p className="text-lg text-zinc-200">有什么可以帮你？</p>
          <p className="text-sm">输入问题开始对话，回答支持 Markdown、代码和表格。</p>
        </div>
      )}
      <ol className="space-y-5">
        {shown?.map((m, i) =>
          m.role === 'USER' ? (
            <li key={m.id} className="flex flex-col items-end gap-1" data-role="user">
              {editing?.id === m.id ? (
                <EditBox
                  text={editing.text}
                  busy={busy}
                  onChange={(text) => setEditing({ id: m.id, text })}
                  onCancel={() => setEditing(null)}
                  onSend={async (content) => {
                    if (await onResend(m, content)) setEditing(null)
                  }}
                />
              ) : (
                <>
                  <Images urls={m.images} />
                  <div className="max-w-[85%] rounded-2xl rounded-tr-sm bg-brand-600/90 px-4 py-2 whitespace-pre-wrap text-white">{m.content}</div>
                  <div className="flex gap-1 text-xs">
                    <Button size="sm" variant="ghost" onClick={() => copy(m.content)}>
                      复制
                    </Button>
                    <Button size="sm" variant="ghost" disabled={busy} onClick={() => setEditing({ id: m.id, text: m.content })}>
                      编辑
                    </Button>
                  </div>
                </>
              )}
            </li>
          ) : (
            <li key={m.id} className="flex flex-col items-start gap-1" data-role="assistant">
              <div className="max-w-full rounded-2xl rounded-tl-sm bg-zinc-800/70 px-4 py-3 text-zinc-100 sm:max-w-[90%]">
                <Markdown text={m.content} />
                {m.incomplete && <p className="mt-2 text-xs text-amber-400">回答不完整（已停止或连接中断）</p>}
              </div>
              <div className="flex gap-1">
                <Button size="sm" variant="ghost" onClick={() => copy(m.content)}>
                  复制
                </Button>
                {i === shown.length - 1 && lastUserIndex >= 0 && (
                  <Button size="sm" variant="ghost" disabled={busy} onClick={() => onResend(shown[lastUserIndex]!, shown[lastUserIndex]!.content)}>
                    重新生成
                  </Button>
                )}
              </div>
            </li>
          ),
        )}
        {pending?.phase === 'streaming' && (
          <li className="flex justify-end" data-role="user">
            <div className="max-w-[85%] rounded-2xl rounded-tr-sm bg-brand-600/90 px-4 py-2 whitespace-pre-wrap text-white">{pending.question.content}</div>
          </li>
        )}
        {pending?.phase === 'streaming' && (
          <li className="flex flex-col items-start" data-role="assistant" data-streaming="true">
            <div className="max-w-full rounded-2xl rounded-tl-sm bg-zinc-800/70 px-4 py-3 text-zinc-100 sm:max-w-[90%]">
              {streamingText ? <Markdown text={streamingText} /> : <span className="animate-pulse text-zinc-400">正在思考…</span>}
            </div>
          </li>
        )}
        {pending?.phase === 'failed' && (
          <li className="flex flex-col items-start gap-1" role="alert">
            <div className="rounded-2xl bg-red-950/50 px-4 py-2 text-sm text-red-300 ring-1 ring-red-900">{pending.errMessage}</div>
            {lastUserIndex >= 0 && (
              <Button size="sm" variant="ghost" onClick={() => onResend(shown![lastUserIndex]!, shown![lastUserIndex]!.content)}>
                重试
              </Button>
            )}
          </li>
        )}
      </ol>
      <div ref={bottom} />
    </div>
  )
}

function Images({ urls }: { urls: string[] }) {
  if (!urls.length) return null
  return (
    <div className="flex flex-wrap justify-end gap-1">
      {urls.map((url) => (
        <img key={url} src={url} alt="附图" className="size-20 rounded-lg object-cover" />
      ))}
    </div>
  )
}

function EditBox({
  text,
  busy,
  onChange,
  onCancel,
  onSend,
}: {
  text: string
  /** An answer is streaming: a box opened before it waits (sending would cut that answer off). */
  busy: boolean
  onChange: (text: string) => void
  onCancel: () => void
  onSend: (content: string) => void
}) {
  return (
    <div className="w-full max-w-[85%] space-y-2">
      <Textarea aria-label="编辑消息" rows={3} value={text} onChange={(e) => onChange(e.target.value)} maxLength={8000} autoFocus />
      <div className="flex justify-end gap-2">
        <Button size="sm" variant="ghost" onClick={onCancel}>
          取消
        </Button>
        <Button size="sm" disabled={busy || !text.trim()} onClick={() => onSend(text.trim())}>
          发送
        </Button>
      </div>
    </div>
  )
}
