'use client'

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { PublishState } from '@/lib/wall/publish-work'
import type { WallItem, WallPage, WallType, WallWorkDetail } from '@/lib/wall/schemas'
import type { ShowcaseView } from '@/lib/wall/showcases'
import type { Json } from '../hooks'
import { api } from '../request'
import { useToken } from '../hooks'
import { mjKeys } from './mj'
import { taskKeys } from './tasks'

export type WallItemJson = Json<WallItem>
export type WallWorkJson = Json<WallWorkDetail>
export type ShowcaseJson = Json<ShowcaseView>
export type WallFilter = { sort: 'new' | 'hot'; type?: WallType; q?: string; favorites?: 1 }

export const wallUrls = {
  wall: '/api/wall',
  work: (id: string) => `/api/wall/${id}`,
  like: (id: string) => `/api/wall/${id}/like`,
  favorite: (id: string) => `/api/wall/${id}/favorite`,
  report: (id: string) => `/api/wall/${id}/report`,
  publish: (taskId: string) => `/api/tasks/${taskId}/publish`,
  unpublish: (taskId: string) => `/api/tasks/${taskId}/unpublish`,
  task: (taskId: string) => `/api/tasks/${taskId}`,
  showcase: '/api/showcase',
} as const

export const wallKeys = {
  all: ['wall'] as const,
  lists: () => [...wallKeys.all, 'list'] as const,
  list: (filter: WallFilter, signedIn: boolean) => [...wallKeys.lists(), filter, signedIn] as const,
  featured: (limit: number, signedIn: boolean) => [...wallKeys.all, 'featured', limit, signedIn] as const,
  work: (id: string) => [...wallKeys.all, 'work', id] as const,
  showcases: () => [...wallKeys.all, 'showcases'] as const,
}

export const WALL_PAGE_SIZE = 30

/** The wall by cursor: each page continues after the last work of the one before. */
export function useWall(filter: WallFilter, enabled = true) {
  const token = useToken()
  return useInfiniteQuery({
    queryKey: wallKeys.list(filter, Boolean(token)),
    queryFn: ({ pageParam }) => api.get<Json<WallPage>>(wallUrls.wall, { ...filter, limit: WALL_PAGE_SIZE, cursor: pageParam ?? undefined }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled: enabled && token !== undefined,
    // Its key changes only with the filter (a tab): never the last tab's works under this one.
    placeholderData: undefined,
  })
}

/**
 * The works of the loaded pages, each once: a work whose likes changed between two pages of
 * 最热 can come again on the next page, and is shown where it came first.
 */
export function worksOfPages(pages: { list: WallItemJson[] }[]): WallItemJson[] {
  const seen = new Set<string>()
  return pages.flatMap((page) => page.list).filter((work) => !seen.has(work.id) && Boolean(seen.add(work.id)))
}

/** The admin's recommended works (the landing page's samples), or the newest when none is recommended yet. */
export function useFeaturedWorks(limit: number) {
  const token = useToken()
  return useQuery({
    queryKey: wallKeys.featured(limit, Boolean(token)),
    queryFn: async () => {
      const featured = await api.get<Json<WallPage>>(wallUrls.wall, { featured: 1, limit }, { silent: true })
      if (featured.list.length >= Math.min(limit, 4)) return featured.list
      const newest = await api.get<Json<WallPage>>(wallUrls.wall, { sort: 'new', limit }, { silent: true })
      const seen = new Set(featured.list.map((w) => w.id))
      return [...featured.list, ...newest.list.filter((w) => !seen.has(w.id))].slice(0, limit)
    },
    enabled: token !== undefined,
  })
}

/** One work with its parameters (the lightbox's facts, 做同款's prefill). */
export function useWallWork(id: string | null) {
  return useQuery({
    queryKey: wallKeys.work(id ?? ''),
    queryFn: () => api.get<WallWorkJson>(wallUrls.work(id!)),
    enabled: Boolean(id),
    // The viewer moves from work to work: never the previous one's seed, likes or date.
    placeholderData: undefined,
  })
}

/** Likes a work or takes the like back; the lists refresh in the background. */
export function useToggleLike() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => api.post<{ liked: boolean; likes: number }>(wallUrls.like(id)),
    onSuccess: (_r, id) =>
      Promise.all([queryClient.invalidateQueries({ queryKey: wallKeys.work(id) }), queryClient.invalidateQueries({ queryKey: wallKeys.lists() })]),
  })
}

/** Keeps a work in 我的收藏 or takes it out. */
export function useToggleFavorite() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => api.post<{ favorited: boolean }>(wallUrls.favorite(id)),
    onSuccess: (_r, id) =>
      Promise.all([queryClient.invalidateQueries({ queryKey: wallKeys.work(id) }), queryClient.invalidateQueries({ queryKey: wallKeys.lists() })]),
  })
}

/** Reports a work to the admin. */
export function useReportWork() {
  return useMutation({ mutationFn: (id: string) => api.post<{ reported: true }>(wallUrls.report(id)) })
}

/** The owner publishes one image of a task to the wall, or takes it off; the task lists show the new state. */
export function usePublishTask() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ taskId, publish, index = 0 }: { taskId: string; publish: boolean; index?: number }) =>
      publish ? api.post<Json<PublishState>>(wallUrls.publish(taskId), { index }) : api.post<Json<PublishState>>(wallUrls.unpublish(taskId)),
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: taskKeys.all }), queryClient.invalidateQueries({ queryKey: wallKeys.all })]),
  })
}

/**
 * The owner deletes a finished task from their history. The lists are read again; the task's
 * own read is not (it would answer 404): a view showing it lets go of it (`onDeleted`).
 */
export function useDeleteTask() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (taskId: string) => api.delete<{ id: string }>(wallUrls.task(taskId)),
    onSuccess: () => Promise.all([taskKeys.lists(), mjKeys.trees(), wallKeys.all].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  })
}

/** The curated collections (/showcase). */
export function useShowcases() {
  const token = useToken()
  return useQuery({
    queryKey: [...wallKeys.showcases(), Boolean(token)],
    queryFn: () => api.get<ShowcaseJson[]>(wallUrls.showcase),
    enabled: token !== undefined,
  })
}
