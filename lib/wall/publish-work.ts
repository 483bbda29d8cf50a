import 'server-only'
import { db } from '@/lib/db'
import { afterWriting } from '@/lib/signals/answer-cache'
import type { WallStatus } from '@/lib/generated/prisma/enums'
import { conflict, notFound } from '@/lib/http/app-error'
import { getConfigValue } from '@/lib/site-config/store'
import { lockTask } from '@/lib/db/lock-task'

export type PublishState = { taskId: string; wallId: string | null; status: WallStatus | null; featured: boolean }

type StoredResult = { url?: unknown; thumbUrl?: unknown; width?: unknown; height?: unknown }
type StoredClip = { url?: unknown; posterUrl?: unknown; width?: unknown; height?: unknown; durationSec?: unknown }
type Shown = { imageUrl: string; thumbUrl: string; videoUrl: string | null; durationSec: number | null; width: number; height: number }

/** What the wall shows of a task's `index`-th picture, or of its clip (the poster stands for it until played). */
function shownOf(type: string, results: unknown, videos: unknown, index: number): Shown {
  if (type === 'VIDEO') {
    const clip = (Array.isArray(videos) ? (videos as StoredClip[]) : [])[index]
    if (!clip || typeof clip.url !== 'string' || typeof clip.posterUrl !== 'string') throw conflict('该作品没有这条视频')
    const durationSec = typeof clip.durationSec === 'number' && Number.isFinite(clip.durationSec) ? clip.durationSec : null
    return {
      imageUrl: clip.posterUrl,
      thumbUrl: clip.posterUrl,
      videoUrl: clip.url,
      durationSec,
      width: Number(clip.width) || 1280,
      height: Number(clip.height) || 720,
    }
  }
  const image = (Array.isArray(results) ? (results as StoredResult[]) : [])[index]
  if (!image || typeof image.url !== 'string' || typeof image.thumbUrl !== 'string') throw conflict('该作品没有这张图片')
  return {
    imageUrl: image.url,
    thumbUrl: image.thumbUrl,
    videoUrl: null,
    durationSec: null,
    width: Number(image.width) || 512,
    height: Number(image.height) || 512,
  }
}

/**
 * The owner puts one image (or the clip) of a finished task on the wall (opt-in, private until then).
 * It waits for the admin unless WALL_AUTO_PUBLISH is on (and always when the owner once took it
 * off while it was reported). Publishing again changes nothing (a hidden work stays hidden:
 * only the admin brings it back).
 */
export async function publishWork(userId: string, taskId: string, index: number): Promise<PublishState> {
  const autoPublish = await getConfigValue<boolean>('WALL_AUTO_PUBLISH')
  return afterWriting(
    'wall',
    db().$transaction(async (tx) => {
      await lockTask(tx, taskId)
      const task = await tx.task.findFirst({
        where: { id: taskId, userId, deletedAt: null },
        select: {
          status: true,
          params: true,
          results: true,
          videos: true,
          model: { select: { name: true, type: true } },
          wallWork: { select: { id: true, status: true, featured: true } },
          wallReportedAt: true,
        },
      })
      if (!task) throw notFound('任务不存在')
      if (task.wallWork) {
        if (task.wallWork.status === 'HIDDEN') throw conflict('该作品已被管理员隐藏，无法再次公开')
        return { taskId, wallId: task.wallWork.id, status: task.wallWork.status, featured: task.wallWork.featured }
      }
      if (task.status !== 'SUCCESS') throw conflict('只有生成成功的作品可以公开')
      const shown = shownOf(task.model.type, task.results, task.videos, index)
      const params = (task.params ?? {}) as Record<string, unknown>
      const prompt = [params.userPrompt, params.modalPrompt, params.prompt].find((p): p is string => typeof p === 'string' && p.length > 0) ?? ''
      // Taken off while reported: back only through review, so taking off and publishing again is no way around reports.
      const status: WallStatus = autoPublish && !task.wallReportedAt ? 'APPROVED' : 'PENDING'
      const work = await tx.wallWork.create({
        data: {
          taskId,
          userId,
          imageIndex: index,
          status,
          listedAt: autoPublish ? new Date() : null,
          modelType: task.model.type,
          modelName: task.model.name,
          ...shown,
          prompt: prompt.slice(0, 2000),
        },
        select: { id: true },
      })
      return { taskId, wallId: work.id, status, featured: false }
    }),
  )
}

/** The owner takes a work off the wall (its likes and places in collections go with it). */
export async function unpublishWork(userId: string, taskId: string): Promise<PublishState> {
  return afterWriting(
    'wall',
    db().$transaction(async (tx) => {
      await lockTask(tx, taskId)
      const task = await tx.task.findFirst({ where: { id: taskId, userId }, select: { id: true, wallWork: { select: { status: true, reports: true } } } })
      if (!task) throw notFound('任务不存在')
      // Taking a hidden work off and publishing it again would bring it back without its reports.
      if (task.wallWork?.status === 'HIDDEN') throw conflict('该作品已被管理员隐藏，无法再次公开')
      await tx.wallWork.deleteMany({ where: { taskId } })
      const reported = task.wallWork && task.wallWork.reports > 0 ? { wallReportedAt: new Date() } : {}
      await tx.task.update({ where: { id: taskId }, data: { isRecommended: false, ...reported } })
      return { taskId, wallId: null, status: null, featured: false }
    }),
  )
}
