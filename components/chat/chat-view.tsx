'use client'

import { useState } from 'react'
import {
  useChatModels,
  useChatStream,
  useConversation,
  useConversationMessages,
  useConversations,
  useCreateConversation,
  useDeleteConversation,
  useUpdateConversation,
  type ChatMessageView,
  type ConversationView,
} from '@/lib/api-client/resources/chat'
import { RequireUser } from '@/components/app/require-user'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { Input, Select } from '@/components/ui/field'
import { FormDialog } from '@/components/ui/form-dialog'
import { Loading } from '@/components/ui/spinner'
import { isRefusal } from '@/lib/api-client/request'
import { cn } from '@/lib/ui/cn'
import { ChatComposer } from './chat-composer'
import { ChatMessages } from './chat-messages'

const PARAM = 'c'

/** /ai_chat: conversations on the left (a drawer on a phone), the open one on the right. */
export function ChatView() {
  return <RequireUser>{(profile) => <Chat points={profile.points} />}</RequireUser>
}

function Chat({ points }: { points: number }) {
  // The open conversation lives in the address (?c=id), so a reload finds it again. This
  // component mounts only once the profile has loaded, never during hydration.
  const [activeId, setActiveId] = useState<string | null>(() => (typeof window === 'undefined' ? null : new URLSearchParams(window.location.search).get(PARAM)))
  const [search, setSearch] = useState('')
  const [drawer, setDrawer] = useState(false)
  const [pickedModel, setPickedModel] = useState('')
  const [renaming, setRenaming] = useState<ConversationView | null>(null)
  const [deleting, setDeleting] = useState<ConversationView | null>(null)
  const models = useChatModels()
  const conversations = useConversations(search.trim())
  // The open conversation's title and model come from the whole list, not from a search that may leave it out.
  const everyConversation = useConversations('')
  const messages = useConversationMessages(activeId)
  const createConversation = useCreateConversation()
  const updateConversation = useUpdateConversation()
  const deleteConversation = useDeleteConversation()
  const stream = useChatStream()

  const open = (id: string | null) => {
    setActiveId(id)
    setDrawer(false)
    if (stream.state.phase === 'failed') stream.clear()
    const url = new URL(window.location.href)
    if (id) url.searchParams.set(PARAM, id)
    else url.searchParams.delete(PARAM)
    window.history.replaceState(null, '', url)
  }

  const listed = [everyConversation.data?.list, conversations.data?.list].flatMap((list) => list ?? []).find((c) => c.id === activeId)
  // One older than the list's newest 200 (opened by its `?c=` link) is asked for by id.
  const unlisted = useConversation(activeId, everyConversation.isSuccess && !listed)
  const active = listed ?? unlisted.data ?? null
  // A missing conversation is reported by its messages' read; anything else here by the header.
  const unlistedFailed = !active && unlisted.isError && !isRefusal(unlisted.error)
  const modelList = models.data ?? []
  const modelId = active?.modelId ?? (pickedModel || modelList[0]?.id || '')
  const model = modelList.find((m) => m.id === modelId)
  const busy = stream.state.phase === 'streaming'

  async function changeModel(id: string) {
    if (!active) return setPickedModel(id)
    try {
      await updateConversation.mutateAsync({ id: active.id, body: { modelId: id } })
    } catch {
      // shown by the request layer
    }
  }

  /** False when the message was refused before an answer started (the composer then keeps it). */
  async function send(content: string, images: string[], replaceFrom?: string): Promise<boolean> {
    let id = activeId
    const isNew = !id
    if (!id) {
      if (!modelId) return false
      try {
        id = (await createConversation.mutateAsync({ modelId })).id
      } catch {
        return false
      }
      open(id)
    }
    const outcome = await stream.send(id, { content, ...(images.length && { images }), ...(replaceFrom && { replaceFrom }) })
    if (outcome === 'refused' && isNew) {
      // Nothing was said in it: the conversation made for this message goes again.
      await deleteConversation.mutateAsync(id).catch(() => {})
      open(null)
    }
    return outcome === 'answered'
  }

  const list = conversations.data?.list
  const sidebar = (
    <div className="flex h-full flex-col gap-3">
      <Button onClick={() => open(null)} disabled={busy}>
        新建对话
      </Button>
      <Input aria-label="搜索对话" placeholder="搜索对话" value={search} onChange={(e) => setSearch(e.target.value)} />
      <nav aria-label="对话列表" className="-mx-1 flex-1 overflow-y-auto px-1">
        {conversations.isLoading ? (
          <Loading />
        ) : conversations.isError ? (
          <p className="p-2 text-sm text-red-400">对话列表加载失败</p>
        ) : !list?.length ? (
          <p className="p-2 text-sm text-zinc-500">{search.trim() ? '没有找到相关对话' : '还没有对话'}</p>
        ) : (
          // While an answer streams the list stands still (停止 ends it): its 停止, its error
          // and 重试 stay with the conversation it was asked in.
          <ul className="space-y-1">
            {list.map((c) => (
              <li key={c.id} className={cn('group flex items-center rounded-lg', c.id === activeId ? 'bg-zinc-800' : !busy && 'hover:bg-zinc-900')}>
                <button
                  type="button"
                  className="min-w-0 flex-1 truncate px-3 py-2 text-left text-sm text-zinc-200 disabled:cursor-not-allowed disabled:opacity-50"
                  onClick={() => open(c.id)}
                  disabled={busy}
                  aria-current={c.id === activeId ? 'page' : undefined}
                  title={c.title}
                >
                  {c.title}
                </button>
                <button
                  type="button"
                  className="px-1 text-xs text-zinc-500 enabled:hover:text-zinc-200 disabled:cursor-not-allowed disabled:opacity-50"
                  onClick={() => setRenaming(c)}
                  disabled={busy}
                  aria-label={`重命名 ${c.title}`}
                >
                  重命名
                </button>
                <button
                  type="button"
                  className="px-2 text-xs text-zinc-500 enabled:hover:text-red-400 disabled:cursor-not-allowed disabled:opacity-50"
                  onClick={() => setDeleting(c)}
                  disabled={busy}
                  aria-label={`删除 ${c.title}`}
                >
                  删除
                </button>
              </li>
            ))}
          </ul>
        )}
      </nav>
    </div>
  )

  return (
    <div className="flex h-[calc(100dvh-10.5rem)] min-h-[28rem] gap-4 md:h-[calc(100dvh-8.5rem)]">
      <aside className="hidden w-64 shrink-0 md:block">{sidebar}</aside>
      {drawer && (
        <div className="fixed inset-0 z-40 md:hidden" role="dialog" aria-label="对话列表">
          <div className="absolute inset-0 bg-black/60" aria-hidden onClick={() => setDrawer(false)} />
          <div
            className="absolute inset-y-0 left-0 flex w-72 max-w-[85vw] flex-col gap-3 border-r border-zinc-800 bg-zinc-950 p-4"
            onKeyDown={(e) => e.key === 'Escape' && setDrawer(false)}
          >
            <Button size="sm" variant="ghost" className="self-end" onClick={() => setDrawer(false)}>
              关闭对话列表
            </Button>
            <div className="min-h-0 flex-1">{sidebar}</div>
          </div>
        </div>
      )}
      <section className="flex min-w-0 flex-1 flex-col rounded-xl border border-zinc-800 bg-zinc-900/40">
        <header className="flex items-center gap-2 border-b border-zinc-800 px-3 py-2">
          <Button size="sm" variant="ghost" className="md:hidden" onClick={() => setDrawer(true)}>
            对话
          </Button>
          {unlistedFailed ? (
            <>
              <h1 className="min-w-0 flex-1 truncate text-sm font-medium text-red-400">对话信息加载失败</h1>
              <Button size="sm" variant="ghost" onClick={() => void unlisted.refetch()}>
                重试
              </Button>
            </>
          ) : (
            <h1 className="min-w-0 flex-1 truncate text-sm font-medium text-white">{active?.title ?? '新对话'}</h1>
          )}
          <Select
            aria-label="模型"
            value={modelId}
            onChange={(e) => changeModel(e.target.value)}
            className="w-40 sm:w-52"
            // An open conversation whose model is not known yet: a pick would not be its model.
            disabled={busy || !modelList.length || (Boolean(activeId) && !active)}
          >
            {modelList.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
                {m.pricePerMessage ? `（${m.pricePerMessage} 积分/条）` : ''}
              </option>
            ))}
            {active && !model && <option value={active.modelId}>（模型已停用）</option>}
          </Select>
        </header>
        {models.isLoading ? (
          <Loading className="flex-1" />
        ) : !modelList.length ? (
          <p className="flex flex-1 items-center justify-center p-6 text-center text-sm text-zinc-400">管理员还没有配置对话模型，请稍后再来</p>
        ) : (
          <>
            <ChatMessages
              key={activeId ?? 'new'}
              conversationId={activeId}
              messages={messages.data?.list}
              isLoading={Boolean(activeId) && messages.isLoading}
              isError={messages.isError}
              state={stream.state}
              busy={busy}
              onResend={(from: ChatMessageView, content: string) => send(content, [], from.id)}
            />
            <ChatComposer
              busy={busy}
              vision={Boolean(model?.vision)}
              disabled={!model}
              hint={
                model
                  ? model.pricePerMessage
                    ? `每条回答 ${model.pricePerMessage} 积分（对话会员免费），当前积分 ${points}`
                    : '免费使用'
                  : '该模型已停用，请换一个模型'
              }
              onSend={(content, images) => send(content, images)}
              onStop={stream.stop}
            />
          </>
        )}
      </section>

      {renaming && (
        <RenameDialog
          conversation={renaming}
          onClose={() => setRenaming(null)}
          onSave={(title) => updateConversation.mutateAsync({ id: renaming.id, body: { title } }).then(() => setRenaming(null))}
        />
      )}
      <ConfirmDialog
        open={Boolean(deleting)}
        title="删除对话"
        danger
        confirmText="删除"
        loading={deleteConversation.isPending}
        onConfirm={async () => {
          if (!deleting) return
          try {
            await deleteConversation.mutateAsync(deleting.id)
            if (deleting.id === activeId) open(null)
            setDeleting(null)
          } catch {
            // shown by the request layer
          }
        }}
        onClose={() => setDeleting(null)}
      >
        确定删除对话 <span className="font-medium text-white">{deleting?.title}</span> 吗？删除后无法恢复。
      </ConfirmDialog>
    </div>
  )
}

function RenameDialog({ conversation, onClose, onSave }: { conversation: ConversationView; onClose: () => void; onSave: (title: string) => Promise<unknown> }) {
  const [title, setTitle] = useState(conversation.title)
  const [busy, setBusy] = useState(false)
  return (
    <FormDialog title="重命名对话" onClose={onClose} formId="rename-conversation" busy={busy}>
      <form
        id="rename-conversation"
        onSubmit={async (e) => {
          e.preventDefault()
          if (!title.trim()) return
          setBusy(true)
          await onSave(title.trim()).catch(() => {})
          setBusy(false)
        }}
      >
        <Input aria-label="对话标题" value={title} onChange={(e) => setTitle(e.target.value)} maxLength={60} autoFocus />
      </form>
    </FormDialog>
  )
}
