import type { Metadata } from 'next'
import { CustomModelManager } from '@/components/admin/custom-models/custom-model-manager'

export const metadata: Metadata = { title: '风格模型' }

export default function CustomModelManaPage() {
  return <CustomModelManager />
}
