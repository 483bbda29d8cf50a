/** How task types and statuses read in the interface. */
export const TASK_TYPE_LABELS: Record<string, string> = {
  SD_TEXT2IMG: '文生图',
  SD_IMG2IMG: '图生图',
  SD_IMGINPAINT: '局部重绘',
  SD_IMGCONTROLNET: '线稿上色',
  MJ_TEXT2IMG: 'MJ 文生图',
  MJ_IMG2IMG: 'MJ 图生图',
  MAKE_SAME: '做同款',
  SD_XIAOLIMAO: '小狸猫',
  VIDEO_TEXT2VIDEO: '文生视频',
  VIDEO_IMG2VIDEO: '图生视频',
}

export const TASK_STATUS_LABELS: Record<string, string> = { PENDING: '进行中', SUCCESS: '成功', FAIL: '失败', CANCELED: '已取消' }

/** The badge tone of each task status. */
export const TASK_STATUS_TONES = { PENDING: 'amber', SUCCESS: 'green', FAIL: 'red', CANCELED: 'zinc' } as const

/** A task type's label, or the type itself when it has none. */
export const taskTypeLabel = (type: string) => TASK_TYPE_LABELS[type] ?? type

/** A running task's stage in words; a backend that answers only at the end (SD WebUI, demo) is generating once progress moves. */
export function stageText(status: string, stage: string, queuePosition?: number | null, progress = 0): string {
  if (status !== 'PENDING') return TASK_STATUS_LABELS[status] ?? status
  if (stage === 'QUEUED') return queuePosition ? `排队中（第 ${queuePosition} 位）` : '排队中'
  if (stage === 'SUBMITTING' && progress === 0) return '提交中'
  return '生成中'
}
