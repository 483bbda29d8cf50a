'use client'

import { useRefreshSiteConfig, useSiteConfig, type ConfigItemView } from '@/lib/api-client/resources/admin-site-config'
import { useProfile } from '@/lib/api-client/resources/profile'
import { isAdmin } from '@/lib/auth/permissions'
import { PageTitle } from '@/components/ui/card'
import { Loading } from '@/components/ui/spinner'
import { ConfigGroupForm } from './config-group-form'

export type { ConfigItemView }

/** /admin/site_config: every known setting, grouped, each group saved on its own. */
export function SiteConfigEditor() {
  const { profile } = useProfile()
  const { data } = useSiteConfig()
  const refresh = useRefreshSiteConfig()
  const canEdit = profile ? isAdmin(profile.role) : false

  async function afterSave() {
    await refresh()
  }

  if (!data) return <Loading />
  return (
    <div className="max-w-3xl">
      <PageTitle>站点配置</PageTitle>
      {!canEdit && <p className="mb-4 rounded-lg bg-amber-500/10 px-4 py-3 text-sm text-amber-300 ring-1 ring-amber-500/30">仅管理员可以修改站点配置。</p>}
      <div className="space-y-5">
        {data.groups.map((group) => (
          <ConfigGroupForm
            key={group}
            title={group}
            items={data.items.filter((i) => i.group === group)}
            allItems={data.items}
            canEdit={canEdit}
            onSaved={afterSave}
          />
        ))}
      </div>
    </div>
  )
}
