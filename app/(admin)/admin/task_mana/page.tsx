import type { Metadata } from 'next'
import { TaskManager } from '@/components/admin/tasks/task-manager'

export const metadata: Metadata = { title: '任务管理' }

export default function TaskManaPage() {
  return <TaskManager />
}
