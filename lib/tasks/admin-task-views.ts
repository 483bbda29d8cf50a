import type { Status, TaskType } from '@/lib/generated/prisma/enums'
import { TASK_VIEW_SELECT, type TaskView } from './task-views'

/**
 * A row of the console's task list: what its table shows (status, cost, results, owner),
 * not the task's parameters, buttons or wall entry, which the detail
 * (GET /api/admin/tasks/{id}) gives when a row is opened.
 */
export type AdminTaskRow = Omit<TaskView, 'params' | 'parentId' | 'action' | 'buttons' | 'previewUrl' | 'wallWork' | 'startedAt' | 'finishedAt'> & {
  user: { id: string; username: string; name: string }
}
export type AdminTaskFilter = { type?: TaskType; status?: Status; user?: string; from?: Date; to?: Date }

export const ADMIN_TASK_SELECT = { ...TASK_VIEW_SELECT, user: { select: { id: true, username: true, name: true } } } as const
