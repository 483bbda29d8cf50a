'use client'

import { useShowcases } from '@/lib/api-client/resources/wall'
import { EmptyState, PageTitle } from '@/components/ui/card'
import { Loading } from '@/components/ui/spinner'
import { WorkGrid } from './wall-gallery'

/** /showcase: the collections the admin assembled, in the admin's order. */
export function ShowcaseView() {
  const { data, isPending, isError } = useShowcases()
  return (
    <div className="space-y-10">
      <PageTitle>精选合集</PageTitle>
      {isPending && <Loading />}
      {isError && <EmptyState>合集加载失败，请稍后刷新重试</EmptyState>}
      {data?.length === 0 && <EmptyState>还没有精选合集</EmptyState>}
      {data?.map((showcase) => (
        <section key={showcase.id} className="space-y-4" aria-labelledby={`showcase-${showcase.id}`}>
          <div className="flex items-center gap-3">
            {showcase.cover && <img src={showcase.cover.thumbUrl} alt="" className="size-12 rounded-xl object-cover ring-1 ring-zinc-800" />}
            <div>
              <h2 id={`showcase-${showcase.id}`} className="text-lg font-medium text-white">
                {showcase.title}
              </h2>
              <p className="text-xs text-zinc-500">{showcase.works.length} 个作品</p>
            </div>
          </div>
          <WorkGrid works={showcase.works} />
        </section>
      ))}
    </div>
  )
}
