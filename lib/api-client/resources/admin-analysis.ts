'use client'

import { useQuery } from '@tanstack/react-query'
import { api } from '../request'

/** One Beijing day of the business: revenue in cents, new users, tasks, points issued and spent. */
export type AnalysisDay = {
  date: string
  revenue: number
  revenueByType: Record<string, number>
  revenueByChannel: Record<string, number>
  newUsers: number
  tasksByType: Record<string, number>
  tasksByStatus: Record<string, number>
  pointsIssued: number
  pointsSpent: number
}

export type AnalysisRange = { from: string; to: string }

export const adminAnalysisUrls = { analysis: '/api/admin/analysis' } as const

export const adminAnalysisKeys = { all: ['admin-analysis'] as const, range: (range: AnalysisRange) => [...adminAnalysisKeys.all, range] as const }

/** The days of a range (YYYY-MM-DD, at most 366 days). */
export function useAnalysis(range: AnalysisRange) {
  return useQuery({
    queryKey: adminAnalysisKeys.range(range),
    queryFn: () => api.get<{ days: AnalysisDay[] }>(adminAnalysisUrls.analysis, range),
    select: (d) => d.days,
  })
}
