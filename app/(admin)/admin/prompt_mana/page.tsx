import type { Metadata } from 'next'
import { PromptManager } from '@/components/admin/prompts/prompt-manager'

export const metadata: Metadata = { title: '提示词管理' }

export default function PromptManaPage() {
  return <PromptManager />
}
