import type { Status, TaskStage, TaskType, WallStatus } from '@/lib/generated/prisma/enums'
import type { ResultButton } from '@/lib/generation/backends/types'
import type { StoredImage } from '@/lib/generation/store-results'
import type { StoredVideo } from '@/lib/generation/store-videos'

/** A task as its owner sees it (GET /api/tasks, /api/tasks/{id}). */
export type TaskView = {
  id: string
  type: TaskType
  status: Status
  stage: TaskStage
  progress: number
  params: Record<string, unknown>
  model: { id: string; name: string }
  chargedPoints: number
  errorMessage: string | null
  results: StoredImage[]
  /** Video tasks: the stored clips (empty for image tasks). */
  videos: StoredVideo[]
  parentId: string | null
  /** Midjourney: imagine/blend/describe, or the customId of the parent's button that made it. */
  action: string | null
  /** Midjourney: the buttons the finished task offers. */
  buttons: ResultButton[]
  /** Midjourney: the latest preview while it runs. */
  previewUrl: string | null
  isRecommended: boolean
  /** Its place on the image wall, when the owner published it. */
  wallWork: { id: string; status: WallStatus; featured: boolean } | null
  refundedAt: Date | null
  createdAt: Date
  startedAt: Date | null
  finishedAt: Date | null
}

export const TASK_VIEW_SELECT = {
  id: true,
  type: true,
  status: true,
  stage: true,
  progress: true,
  params: true,
  chargedPoints: true,
  errorMessage: true,
  results: true,
  videos: true,
  parentId: true,
  action: true,
  buttons: true,
  previewUrl: true,
  isRecommended: true,
  wallWork: { select: { id: true, status: true, featured: true } },
  refundedAt: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
  model: { select: { id: true, name: true } },
} as const

type TaskRecord = Omit<TaskView, 'params' | 'results' | 'videos' | 'buttons'> & { params: unknown; results: unknown; videos?: unknown; buttons: unknown }

export function toTaskView(row: TaskRecord): TaskView {
  return {
    ...row,
    params: (row.params ?? {}) as Record<string, unknown>,
    results: (row.results ?? []) as StoredImage[],
    videos: (row.videos ?? []) as StoredVideo[],
    buttons: (row.buttons ?? []) as ResultButton[],
  }
}

/** What a user-facing failure says (the console keeps the backend's own words). */
export const TASK_ERROR_MESSAGES = {
  TIMEOUT: '生成超时，积分已退还',
  UNREACHABLE: '生成服务暂时无法连接，积分已退还',
  BUSY: '生成服务繁忙，积分已退还，请稍后再试',
  REJECTED: '生成服务拒绝了该任务，积分已退还',
  UPSTREAM_FAILED: '生成失败，积分已退还',
  BAD_RESPONSE: '生成服务返回了无法识别的结果，积分已退还',
  UNAUTHORIZED: '生成服务配置有误，积分已退还，请联系管理员',
  BACKEND_LOST: '生成服务中断，积分已退还',
  BACKEND_DOWN: '生成服务暂时不可用，任务已取消，积分已退还',
  INPUT_MISSING: '输入图片已失效，积分已退还，请重新上传',
  STORAGE_FAILED: '保存结果失败，积分已退还',
  CANCELED_BY_ADMIN: '任务已被管理员取消，积分已退还',
} as const satisfies Record<string, string>

/** The user-facing words for a failure code, or the generic ones. */
export function taskErrorMessage(code: string): string {
  return (TASK_ERROR_MESSAGES as Record<string, string | undefined>)[code] ?? TASK_ERROR_MESSAGES.UPSTREAM_FAILED
}

/** What an error code means, for the console (the backend's own words stay in the task's log). */
export const TASK_ERROR_LABELS: Record<string, string> = {
  TIMEOUT: '生成超时',
  UNREACHABLE: '无法连接生成服务',
  BUSY: '生成服务繁忙',
  REJECTED: '生成服务拒绝了任务（参数、模型或内容不被接受）',
  UPSTREAM_FAILED: '生成服务接受任务后生成失败',
  BAD_RESPONSE: '生成服务返回了无法识别的结果',
  UNAUTHORIZED: '生成服务认证失败（检查模型的密钥或账号）',
  ABORTED: '任务被中止',
  BACKEND_LOST: '生成服务丢失了任务（可能重启过）',
  BACKEND_DOWN: '模型的后端全部不可用，排队超时后取消',
  INPUT_MISSING: '输入图片已失效',
  STORAGE_FAILED: '保存生成结果失败',
  CANCELED_BY_ADMIN: '管理员取消',
}

export const taskErrorLabel = (code: string) => TASK_ERROR_LABELS[code] ?? '其他错误'
