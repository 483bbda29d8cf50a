import type { Metadata } from 'next'
import { ChatView } from '@/components/chat/chat-view'

export const metadata: Metadata = { title: 'AI 对话' }

export default function AiChatPage() {
  return <ChatView />
}
