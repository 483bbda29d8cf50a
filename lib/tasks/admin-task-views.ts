import type { Status, TaskType } from '@/lib/generated/prisma/enums'
import { TASK_VIEW_SELECT, type TaskView } from './task-views'

export type AdminTaskRow = TaskView & { user: { id: string; username: string; name: string } }
export type AdminTaskFilter = { type?: TaskType; status?: Status; user?: string; from?: Date; to?: Date }

export const ADMIN_TASK_SELECT = { ...TASK_VIEW_SELECT, user: { select: { id: true, username: true, name: true } } } as const
