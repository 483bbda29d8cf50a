import type { Metadata } from 'next'
import { ModelManager } from '@/components/admin/models/model-manager'

export const metadata: Metadata = { title: '模型管理' }

export default function ModelManaPage() {
  return <ModelManager />
}
