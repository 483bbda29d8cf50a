'use client'

import { useQuery } from '@tanstack/react-query'
import type { AnalysisDay } from '@/lib/analysis/day-totals'
import { api } from '../request'

export type { AnalysisDay }

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
