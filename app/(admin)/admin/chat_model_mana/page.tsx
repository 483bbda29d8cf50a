import type { Metadata } from 'next'
import { ChatModelManager } from '@/components/admin/chat-models/chat-model-manager'

export const metadata: Metadata = { title: '对话模型' }

export default function ChatModelManaPage() {
  return <ChatModelManager />
}
