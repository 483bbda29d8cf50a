'use client'

import { useQuery } from '@tanstack/react-query'
import type { z } from 'zod'
import type { Page } from '@/lib/http/pagination'
import type { AdminWallWork } from '@/lib/wall/moderate-work'
import type { ZShowcaseSchema } from '@/lib/wall/schemas'
import type { Json } from '../hooks'
import { api } from '../request'
import type { ShowcaseJson } from './wall'
import { adminTaskKeys } from './admin-tasks'
import { wallKeys } from './wall'
import { useWrite } from './write'

export type AdminWallRow = Json<AdminWallWork>
export type AdminWallParams = { page: number; pageSize: number; status?: string; featured?: number; reported?: number }
export type ShowcaseBody = z.input<typeof ZShowcaseSchema>

export const adminWallUrls = {
  wall: '/api/admin/wall',
  work: (id: string) => `/api/admin/wall/${id}`,
  approve: (id: string) => `/api/admin/wall/${id}/approve`,
  hide: (id: string) => `/api/admin/wall/${id}/hide`,
  unRecommend: (taskId: string) => `/api/admin/tasks/un_recommend/${taskId}`,
  recommend: (taskId: string) => `/api/admin/tasks/recommend/${taskId}`,
  showcases: '/api/admin/showcase',
  showcase: (id: number) => `/api/admin/showcase/${id}`,
} as const

export const adminWallKeys = {
  all: ['admin-wall'] as const,
  list: (params: AdminWallParams) => [...adminWallKeys.all, 'list', params] as const,
  showcases: () => [...adminWallKeys.all, 'showcases'] as const,
}

export function useAdminWall(params: AdminWallParams) {
  return useQuery({ queryKey: adminWallKeys.list(params), queryFn: () => api.get<Page<AdminWallRow>>(adminWallUrls.wall, params) })
}

export function useAdminShowcases() {
  return useQuery({ queryKey: adminWallKeys.showcases(), queryFn: () => api.get<ShowcaseJson[]>(adminWallUrls.showcases) })
}

const useWallWrite = <Input, Output>(send: (input: Input) => Promise<Output>) => useWrite(send, [adminWallKeys.all, wallKeys.all, adminTaskKeys.all])

export const useApproveWork = () => useWallWrite((id: string) => api.post(adminWallUrls.approve(id)))
export const useHideWork = () => useWallWrite((id: string) => api.post(adminWallUrls.hide(id)))
export const useSetWorkSort = () => useWallWrite(({ id, sort }: { id: string; sort: number }) => api.patch(adminWallUrls.work(id), { sort }))
export const useFeatureWork = () =>
  useWallWrite(({ taskId, on }: { taskId: string; on: boolean }) => api.post(on ? adminWallUrls.recommend(taskId) : adminWallUrls.unRecommend(taskId)))
export const useCreateShowcase = () => useWallWrite((body: ShowcaseBody) => api.post(adminWallUrls.showcases, body))
export const useUpdateShowcase = () => useWallWrite(({ id, body }: { id: number; body: ShowcaseBody }) => api.patch(adminWallUrls.showcase(id), body))
export const useDeleteShowcase = () => useWallWrite((id: number) => api.delete(adminWallUrls.showcase(id)))
