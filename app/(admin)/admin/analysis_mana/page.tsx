import type { Metadata } from 'next'
import { AnalysisView } from '@/components/admin/analysis/analysis-view'

export const metadata: Metadata = { title: '数据分析' }

export default function AnalysisManaPage() {
  return <AnalysisView />
}
