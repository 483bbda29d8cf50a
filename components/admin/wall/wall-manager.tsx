'use client'

import { useState } from 'react'
import {
  useAdminWall,
  useApproveWork,
  useFeatureWork,
  useHideWork,
  useSetWorkSort,
  type AdminWallParams,
  type AdminWallRow,
} from '@/lib/api-client/resources/admin-wall'
import { formatDateTime } from '@/lib/format'
import { toast } from '@/lib/ui/toast-store'
import { attempt } from '@/lib/ui/use-action'
import { WALL_STATUS_LABELS } from '@/lib/wall/labels'
import { Button } from '@/components/ui/button'
import { Badge, PageTitle } from '@/components/ui/card'
import { DataTable, type Column } from '@/components/ui/data-table'
import { Input } from '@/components/ui/field'
import { Pagination } from '@/components/ui/pagination'
import { Tabs } from '@/components/wall/tabs'
import { ShowcaseManager } from './showcase-manager'

type Tab = 'PENDING' | 'APPROVED' | 'FEATURED' | 'REPORTED' | 'HIDDEN' | 'SHOWCASE'

const TABS: { value: Tab; label: string }[] = [
  { value: 'PENDING', label: '待审核' },
  { value: 'APPROVED', label: '已上墙' },
  { value: 'FEATURED', label: '推荐作品' },
  { value: 'REPORTED', label: '被举报' },
  { value: 'HIDDEN', label: '已隐藏' },
  { value: 'SHOWCASE', label: '精选合集' },
]
const TONES = { PENDING: 'amber', APPROVED: 'green', HIDDEN: 'zinc' } as const
const PAGE_SIZE = 20

/** /admin/image_wall_mana: submissions to approve or hide, the wall, recommended works in order, reported works, hidden works, and the showcase collections. */
export function WallManager() {
  const [tab, setTab] = useState<Tab>('PENDING')
  const [page, setPage] = useState(1)
  return (
    <div>
      <PageTitle>作品墙管理</PageTitle>
      <div className="mb-4">
        <Tabs label="作品墙" value={tab} onChange={(t) => (setTab(t), setPage(1))} options={TABS} />
      </div>
      {tab === 'SHOWCASE' ? (
        <ShowcaseManager />
      ) : (
        <WorkTable
          key={tab}
          params={{
            page,
            pageSize: PAGE_SIZE,
            ...(tab === 'FEATURED' ? { featured: 1, status: 'APPROVED' } : tab === 'REPORTED' ? { reported: 1, status: 'APPROVED' } : { status: tab }),
          }}
          featured={tab === 'FEATURED'}
          onPage={setPage}
        />
      )}
    </div>
  )
}

function WorkTable({ params, featured, onPage }: { params: AdminWallParams; featured: boolean; onPage: (page: number) => void }) {
  const { data, isLoading, isError } = useAdminWall(params)
  const approve = useApproveWork()
  const hide = useHideWork()
  const feature = useFeatureWork()
  const setSort = useSetWorkSort()
  const [busyId, setBusyId] = useState<string | null>(null)

  async function act(row: AdminWallRow, work: () => Promise<unknown>, done: string) {
    setBusyId(row.id)
    await attempt(async () => (await work(), toast.success(done)))
    setBusyId(null)
  }

  const columns: Column<AdminWallRow>[] = [
    {
      header: '作品',
      cell: (w) => (
        <a
          href={w.videoUrl ?? w.imageUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="relative block w-16"
          title={w.videoUrl ? '播放视频' : '查看原图'}
        >
          <img src={w.thumbUrl} alt={w.prompt.slice(0, 40)} className="h-16 w-16 rounded-lg object-cover ring-1 ring-zinc-800" loading="lazy" />
          {w.videoUrl && <span className="absolute bottom-1 right-1 rounded bg-black/70 px-1 text-[10px] text-white">▶ 视频</span>}
        </a>
      ),
    },
    {
      header: '提示词',
      cell: (w) => <span title={w.prompt}>{w.prompt || '-'}</span>,
      className: 'max-w-72 truncate text-zinc-200 max-sm:line-clamp-2',
      mobile: 'title',
    },
    { header: '作者', cell: (w) => w.author.name },
    { header: '模型', cell: (w) => w.model, mobile: 'hide' },
    { header: '点赞', cell: (w) => w.likes, mobile: 'hide' },
    { header: '举报', cell: (w) => (w.reports > 0 ? <span className="text-amber-300">{w.reports}</span> : '-') },
    {
      header: '状态',
      cell: (w) => (
        <span className="flex gap-1">
          <Badge tone={TONES[w.status]}>{WALL_STATUS_LABELS[w.status]}</Badge>
          {w.featured && <Badge tone="brand">推荐</Badge>}
        </span>
      ),
    },
    { header: '提交时间', cell: (w) => formatDateTime(w.createdAt), mobile: 'hide' },
    ...(featured
      ? [
          {
            header: '排序',
            cell: (w: AdminWallRow) => (
              <Input
                type="number"
                aria-label={`排序 ${w.prompt.slice(0, 20)}`}
                defaultValue={w.sort}
                className="w-20"
                onBlur={(e) => {
                  const sort = Number(e.target.value)
                  if (Number.isInteger(sort) && sort !== w.sort) void act(w, () => setSort.mutateAsync({ id: w.id, sort }), '排序已保存')
                }}
              />
            ),
          },
        ]
      : []),
    {
      header: '操作',
      mobile: 'actions',
      cell: (w) => (
        <div className="flex flex-wrap gap-1">
          {w.status !== 'APPROVED' && (
            <Button size="sm" variant="ghost" loading={busyId === w.id} onClick={() => act(w, () => approve.mutateAsync(w.id), '已通过，作品已上墙')}>
              通过
            </Button>
          )}
          {w.status !== 'HIDDEN' && (
            <Button
              size="sm"
              variant="ghost"
              loading={busyId === w.id}
              onClick={() => act(w, () => feature.mutateAsync({ taskId: w.taskId, on: !w.featured }), w.featured ? '已取消推荐' : '已推荐到作品墙')}
            >
              {w.featured ? '取消推荐' : '推荐'}
            </Button>
          )}
          {w.status !== 'HIDDEN' && (
            <Button size="sm" variant="ghost" className="text-red-400" loading={busyId === w.id} onClick={() => act(w, () => hide.mutateAsync(w.id), '已隐藏')}>
              隐藏
            </Button>
          )}
        </div>
      ),
    },
  ]

  return (
    <>
      <DataTable
        columns={columns}
        rows={data?.list}
        rowKey={(w) => w.id}
        isLoading={isLoading}
        isError={isError}
        empty={params.status === 'PENDING' ? '没有待审核的作品' : params.reported ? '没有被举报的作品' : '没有作品'}
        rowClassName="hover:bg-zinc-900/50"
      />
      {data && data.total > 0 && <p className="mt-4 text-sm text-zinc-400">总计 {data.total} 个</p>}
      {data && data.total > params.pageSize && <Pagination page={params.page} pageSize={params.pageSize} total={data.total} onChange={onPage} />}
    </>
  )
}
