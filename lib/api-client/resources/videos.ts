'use client'

import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { Page } from '@/lib/http/pagination'
import type { AdminVideo, VideoDetail, VideoKindParam, VideoListItem } from '@/lib/videos/schemas'
import { api } from '../request'

export type { AdminVideo, VideoDetail, VideoListItem, VideoKindParam }
export type MyVideo = VideoListItem & { boughtAt: string }
export type VideoFilters = { kind: VideoKindParam; keyword?: string; tag?: string }
export type VideoPurchaseRow = {
  id: string
  price: number
  createdAt: string
  orderId: string
  user: { id: string; username: string }
  video: { id: string; title: string }
}
export type VideoPurchaseReport = Page<VideoPurchaseRow> & { perItem: { videoId: string; title: string; purchases: number; revenue: number }[] }

export const videoUrls = {
  list: '/api/videos',
  mine: '/api/videos/mine',
  video: (id: string) => `/api/videos/${encodeURIComponent(id)}`,
  download: (id: string) => `/api/videos/${encodeURIComponent(id)}/download`,
  admin: '/api/admin/videos',
  adminVideo: (id: string) => `/api/admin/videos/${encodeURIComponent(id)}`,
  uploads: '/api/admin/videos/uploads',
  chunk: (id: string, index: number) => `/api/admin/videos/uploads/${encodeURIComponent(id)}/chunks/${index}`,
  purchases: '/api/admin/video-purchases',
} as const

export const videoKeys = {
  all: ['videos'] as const,
  list: (f: VideoFilters) => [...videoKeys.all, 'list', f] as const,
  detail: (id: string) => [...videoKeys.all, 'detail', id] as const,
  mine: () => [...videoKeys.all, 'mine'] as const,
  admin: (p: { page: number; keyword?: string }) => [...videoKeys.all, 'admin', p] as const,
  purchases: (p: { page: number; user?: string }) => [...videoKeys.all, 'purchases', p] as const,
}

/** Published items of one kind, a cursor page at a time (用 fetchNextPage 加载更多). */
export function useVideos(filters: VideoFilters) {
  return useInfiniteQuery({
    queryKey: videoKeys.list(filters),
    queryFn: ({ pageParam }) => api.get<{ list: VideoListItem[]; nextCursor: string | null }>(videoUrls.list, { ...filters, cursor: pageParam }),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
  })
}

/** One item; its playUrl is a signed link that expires, so it is asked for again on every visit. */
export function useVideo(id: string) {
  return useQuery({ queryKey: videoKeys.detail(id), queryFn: () => api.get<VideoDetail>(videoUrls.video(id)), staleTime: 0, placeholderData: undefined })
}

export function useMyVideos({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: videoKeys.mine(), queryFn: () => api.get<{ list: MyVideo[] }>(videoUrls.mine), enabled })
}

/** After a purchase: lists, details and the library change. */
export function useRefreshVideos() {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: videoKeys.all })
}

export function useAdminVideos(p: { page: number; pageSize: number; keyword?: string }) {
  return useQuery({ queryKey: videoKeys.admin(p), queryFn: () => api.get<Page<AdminVideo>>(videoUrls.admin, p), placeholderData: keepPreviousData })
}

export function useVideoPurchases(p: { page: number; pageSize: number; user?: string }) {
  return useQuery({ queryKey: videoKeys.purchases(p), queryFn: () => api.get<VideoPurchaseReport>(videoUrls.purchases, p), placeholderData: keepPreviousData })
}

export type NewVideo = {
  file: File
  poster?: File | null
  posterSecond?: number
  preview?: File | null
  fields: { title: string; description: string; tags: string; price: number; kind: VideoKindParam; published: boolean }
}

/** With S3: the whole file straight to the bucket by its presigned PUT (XHR, for upload progress). */
function putToBucket(direct: { url: string; contentType: string }, file: File, onProgress: (share: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('PUT', direct.url)
    xhr.setRequestHeader('Content-Type', direct.contentType)
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total)
    xhr.onload = () => (xhr.status >= 200 && xhr.status < 300 ? resolve() : reject(new Error(`对象存储拒绝了上传（${xhr.status}）`)))
    xhr.onerror = () => reject(new Error('上传到对象存储失败，请检查存储桶的跨域（CORS）设置'))
    xhr.send(file)
  })
}

/**
 * Uploads an original (docs/PROTOCOLS.md §15): init, then with S3 one presigned PUT straight to
 * the bucket, else each chunk with its index (a failed chunk is sent again, up to 3 times),
 * then the create call with the poster, preview and fields. `onProgress` gets the share sent, 0..1.
 */
export function useCreateVideo(onProgress: (share: number) => void) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (v: NewVideo) => {
      const started = await api.post<{ id: string; chunkSize: number; chunks: number; direct?: { url: string; contentType: string } }>(videoUrls.uploads, {
        size: v.file.size,
        name: v.file.name,
      })
      if (started.direct) await putToBucket(started.direct, v.file, onProgress)
      for (let index = 0; index < started.chunks; index++) {
        const part = v.file.slice(index * started.chunkSize, Math.min(v.file.size, (index + 1) * started.chunkSize))
        for (let attempt = 1; ; attempt++) {
          try {
            await api.put(videoUrls.chunk(started.id, index), part, { silent: attempt < 3 })
            break
          } catch (error) {
            if (attempt >= 3) throw error
          }
        }
        onProgress((index + 1) / started.chunks)
      }
      const form = new FormData()
      form.set('uploadId', started.id)
      for (const [k, value] of Object.entries(v.fields)) form.set(k, String(value))
      if (v.poster) form.set('poster', v.poster)
      else if (v.posterSecond !== undefined) form.set('posterSecond', String(v.posterSecond))
      if (v.preview) form.set('preview', v.preview)
      return api.post<AdminVideo>(videoUrls.admin, form)
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: videoKeys.all }),
  })
}

export function useUpdateVideo() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: Partial<NewVideo['fields']> }) => api.patch<AdminVideo>(videoUrls.adminVideo(id), patch),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: videoKeys.all }),
  })
}

export function useDeleteVideo() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => api.delete<{ deleted: boolean }>(videoUrls.adminVideo(id)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: videoKeys.all }),
  })
}
