'use client'

import { useState } from 'react'
import { useProfile } from '@/lib/api-client/resources/profile'
import { useAdminVideos, useDeleteVideo, useUpdateVideo, type AdminVideo } from '@/lib/api-client/resources/videos'
import { isAdmin } from '@/lib/auth/permissions'
import { formatCents, parseYuanToCents } from '@/lib/format'
import { attempt } from '@/lib/ui/use-action'
import { Button } from '@/components/ui/button'
import { Badge, PageTitle } from '@/components/ui/card'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { DataTable, type Column } from '@/components/ui/data-table'
import { Field, Input, Switch } from '@/components/ui/field'
import { FormDialog } from '@/components/ui/form-dialog'
import { Pagination } from '@/components/ui/pagination'
import { formatDuration } from '@/components/videos/video-card'
import { VideoUploadDialog } from './video-upload-dialog'

const PAGE_SIZE = 20

/** /admin/video_mana: the operator's library: upload, price, publish, delete. */
export function VideoManager() {
  const { profile } = useProfile()
  const canWrite = profile ? isAdmin(profile.role) : false
  const [page, setPage] = useState(1)
  const list = useAdminVideos({ page, pageSize: PAGE_SIZE })
  const update = useUpdateVideo()
  const remove = useDeleteVideo()
  const [uploading, setUploading] = useState(false)
  const [pricing, setPricing] = useState<AdminVideo | null>(null)
  const [price, setPrice] = useState('')
  const [deleting, setDeleting] = useState<AdminVideo | null>(null)

  const columns: Column<AdminVideo>[] = [
    {
      header: '视频',
      mobile: 'title',
      cell: (v) => (
        <div className="flex items-center gap-3">
          <img src={v.posterUrl} alt="" className="h-10 w-16 shrink-0 rounded object-cover" />
          <div className="min-w-0">
            <div className="truncate text-white">{v.title}</div>
            <div className="text-xs text-zinc-500 tabular-nums">
              {formatDuration(v.durationSec)} · {v.width}×{v.height}
            </div>
          </div>
        </div>
      ),
    },
    { header: '类型', cell: (v) => (v.kind === 'paid' ? <Badge tone="amber">付费 ¥{formatCents(v.price)}</Badge> : <Badge>免费</Badge>) },
    { header: '购买 / 收入', cell: (v) => (v.kind === 'paid' ? `${v.purchases} 次 / ¥${formatCents(v.revenue)}` : '-'), className: 'tabular-nums' },
    {
      header: '上架',
      cell: (v) => (
        <Switch
          checked={v.published}
          label={`上架 ${v.title}`}
          disabled={!canWrite || update.isPending}
          onChange={(published) => void attempt(() => update.mutateAsync({ id: v.id, patch: { published } }))}
        />
      ),
    },
    {
      header: '操作',
      mobile: 'actions',
      cell: (v) =>
        canWrite ? (
          <div className="flex gap-2">
            <Button
              size="sm"
              variant="secondary"
              onClick={() => {
                setPricing(v)
                setPrice(v.kind === 'paid' ? formatCents(v.price) : '')
              }}
            >
              定价
            </Button>
            <Button size="sm" variant="danger" onClick={() => setDeleting(v)}>
              删除
            </Button>
          </div>
        ) : null,
    },
  ]

  const savePrice = async () => {
    if (!pricing) return
    const cents = price.trim() === '' ? 0 : parseYuanToCents(price)
    if (cents === null) return
    const ok = await attempt(() => update.mutateAsync({ id: pricing.id, patch: cents > 0 ? { kind: 'paid', price: cents } : { kind: 'free', price: 0 } }))
    if (ok) setPricing(null)
  }

  return (
    <div>
      <PageTitle actions={canWrite ? <Button onClick={() => setUploading(true)}>上传视频</Button> : undefined}>视频素材</PageTitle>
      <DataTable columns={columns} rows={list.data?.list} rowKey={(v) => v.id} isLoading={list.isLoading} isError={list.isError} empty="还没有视频素材" />
      {list.data && <Pagination page={page} pageSize={PAGE_SIZE} total={list.data.total} onChange={setPage} />}
      <VideoUploadDialog open={uploading} onClose={() => setUploading(false)} />
      <FormDialog open={Boolean(pricing)} title="定价" onClose={() => setPricing(null)} onConfirm={() => void savePrice()} busy={update.isPending}>
        <Field label="价格（元）" htmlFor="video-set-price" help="填 0 或留空则改为免费素材">
          <Input id="video-set-price" inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value)} />
        </Field>
      </FormDialog>
      <ConfirmDialog
        open={Boolean(deleting)}
        title="删除视频"
        danger
        loading={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() => void attempt(() => remove.mutateAsync(deleting!.id)).then((ok) => ok && setDeleting(null))}
      >
        确定删除「{deleting?.title}」吗？已有人购买的视频只会下架，购买者仍可观看和下载。
      </ConfirmDialog>
    </div>
  )
}
