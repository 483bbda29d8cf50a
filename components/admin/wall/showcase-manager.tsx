'use client'

import { useState, type FormEvent } from 'react'
import {
  useAdminShowcases,
  useAdminWall,
  useCreateShowcase,
  useDeleteShowcase,
  useUpdateShowcase,
  type ShowcaseBody,
} from '@/lib/api-client/resources/admin-wall'
import type { ShowcaseJson } from '@/lib/api-client/resources/wall'
import { toast } from '@/lib/ui/toast-store'
import { useAction } from '@/lib/ui/use-action'
import { cn } from '@/lib/ui/cn'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { DataTable, type Column } from '@/components/ui/data-table'
import { Field, Input, Select } from '@/components/ui/field'
import { FormDialog } from '@/components/ui/form-dialog'

/** The collections of /showcase: title, cover, works (in the order picked) and their own order. */
export function ShowcaseManager() {
  const { data, isLoading, isError } = useAdminShowcases()
  const [editing, setEditing] = useState<ShowcaseJson | 'new' | null>(null)
  const [deleting, setDeleting] = useState<ShowcaseJson | null>(null)
  const remove = useDeleteShowcase()
  const [busy, run] = useAction()

  const columns: Column<ShowcaseJson>[] = [
    {
      header: '封面',
      cell: (s) => (s.cover ? <img src={s.cover.thumbUrl} alt="" className="h-12 w-12 rounded-lg object-cover" /> : <span className="text-zinc-500">-</span>),
    },
    { header: '标题', cell: (s) => s.title, className: 'font-medium text-white', mobile: 'title' },
    { header: '作品数', cell: (s) => s.works.length },
    { header: '排序', cell: (s) => s.sort },
    {
      header: '操作',
      mobile: 'actions',
      cell: (s) => (
        <div className="flex gap-1">
          <Button size="sm" variant="ghost" onClick={() => setEditing(s)}>
            编辑
          </Button>
          <Button size="sm" variant="ghost" className="text-red-400" onClick={() => setDeleting(s)}>
            删除
          </Button>
        </div>
      ),
    },
  ]
  return (
    <div className="space-y-4">
      <div className="flex justify-end">
        <Button onClick={() => setEditing('new')}>新建合集</Button>
      </div>
      <DataTable columns={columns} rows={data} rowKey={(s) => s.id} isLoading={isLoading} isError={isError} empty="还没有合集" />
      {editing && <ShowcaseDialog showcase={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={Boolean(deleting)}
        title="删除合集"
        danger
        loading={busy}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          run(async () => {
            await remove.mutateAsync(deleting.id)
            toast.success('合集已删除')
            setDeleting(null)
          })
        }
      >
        确定删除合集「{deleting?.title}」吗？作品本身不受影响。
      </ConfirmDialog>
    </div>
  )
}

function ShowcaseDialog({ showcase, onClose }: { showcase: ShowcaseJson | null; onClose: () => void }) {
  const [title, setTitle] = useState(showcase?.title ?? '')
  const [sort, setSort] = useState(String(showcase?.sort ?? 0))
  const [picked, setPicked] = useState<string[]>(showcase?.works.map((w) => w.id) ?? [])
  const [cover, setCover] = useState(showcase?.coverWorkId ?? '')
  const { data: wall } = useAdminWall({ page: 1, pageSize: 100, status: 'APPROVED' })
  const create = useCreateShowcase()
  const update = useUpdateShowcase()
  const [busy, run] = useAction()
  const candidates = [...(showcase?.works.map((w) => ({ id: w.id, thumbUrl: w.thumbUrl, prompt: w.prompt })) ?? []), ...(wall?.list ?? [])].filter(
    (w, i, all) => all.findIndex((o) => o.id === w.id) === i,
  )

  function toggle(id: string) {
    setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p, id]))
    if (cover === id) setCover('')
  }

  function save(e: FormEvent) {
    e.preventDefault()
    if (!title.trim()) return toast.error('请输入标题')
    const body: ShowcaseBody = { title: title.trim(), sort: Number(sort) || 0, workIds: picked, coverWorkId: cover && picked.includes(cover) ? cover : null }
    void run(async () => {
      if (showcase) await update.mutateAsync({ id: showcase.id, body })
      else await create.mutateAsync(body)
      toast.success(showcase ? '合集已保存' : '合集已创建')
      onClose()
    })
  }

  return (
    <FormDialog title={showcase ? '编辑合集' : '新建合集'} formId="showcase-form" busy={busy} onClose={onClose} className="sm:max-w-2xl">
      <form id="showcase-form" onSubmit={save} className="space-y-4">
        <Field label="标题" htmlFor="showcase-title">
          <Input id="showcase-title" value={title} onChange={(e) => setTitle(e.target.value)} maxLength={60} />
        </Field>
        <div className="grid grid-cols-2 gap-3">
          <Field label="排序（大的在前）" htmlFor="showcase-sort">
            <Input id="showcase-sort" type="number" value={sort} onChange={(e) => setSort(e.target.value)} />
          </Field>
          <Field label="封面" htmlFor="showcase-cover">
            <Select id="showcase-cover" value={cover} onChange={(e) => setCover(e.target.value)}>
              <option value="">第一个作品</option>
              {picked.map((id, i) => (
                <option key={id} value={id}>
                  第 {i + 1} 个作品
                </option>
              ))}
            </Select>
          </Field>
        </div>
        <Field label={`作品（按点选顺序排列，已选 ${picked.length} 个）`}>
          <div className="grid max-h-72 grid-cols-4 gap-2 overflow-y-auto p-1 sm:grid-cols-6">
            {candidates.map((w) => {
              const at = picked.indexOf(w.id)
              return (
                <button
                  key={w.id}
                  type="button"
                  aria-pressed={at >= 0}
                  aria-label={`选择作品 ${w.prompt.slice(0, 20)}`}
                  onClick={() => toggle(w.id)}
                  className={cn(
                    'relative aspect-square overflow-hidden rounded-lg ring-2',
                    at >= 0 ? 'ring-brand-500' : 'ring-transparent opacity-70 hover:opacity-100',
                  )}
                >
                  <img src={w.thumbUrl} alt="" className="h-full w-full object-cover" loading="lazy" />
                  {at >= 0 && <span className="absolute right-1 top-1 rounded bg-brand-600 px-1 text-[10px] text-white">{at + 1}</span>}
                </button>
              )
            })}
            {candidates.length === 0 && <p className="col-span-full text-xs text-zinc-500">作品墙还没有作品</p>}
          </div>
        </Field>
      </form>
    </FormDialog>
  )
}
