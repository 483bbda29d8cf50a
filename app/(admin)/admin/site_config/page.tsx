import type { Metadata } from 'next'
import { SiteConfigEditor } from '@/components/admin/site-config/site-config-editor'

export const metadata: Metadata = { title: '站点配置' }

export default function SiteConfigPage() {
  return <SiteConfigEditor />
}
