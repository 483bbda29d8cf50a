'use client'

import { useState } from 'react'
import { ApiError } from '@/lib/api-client/request'
import { useCreateVideo } from '@/lib/api-client/resources/videos'
import { parseYuanToCents } from '@/lib/format'
import { Field, Input, Select, SwitchRow, Textarea } from '@/components/ui/field'
import { FormDialog } from '@/components/ui/form-dialog'

const FORM_ID = 'video-upload-form'

/**
 * 上传视频: the original (sent in chunks, with a progress bar), a poster image or the second
 * to take it from, a preview clip for paid items (made from the first seconds when none),
 * title, description, tags, free/paid and the price, published.
 */
export function VideoUploadDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [progress, setProgress] = useState(0)
  const create = useCreateVideo(setProgress)
  const [file, setFile] = useState<File | null>(null)
  const [poster, setPoster] = useState<File | null>(null)
  const [preview, setPreview] = useState<File | null>(null)
  const [posterSecond, setPosterSecond] = useState('1')
  const [title, setTitle] = useState('')
  const [description, setDescription] = useState('')
  const [tags, setTags] = useState('')
  const [kind, setKind] = useState<'free' | 'paid'>('free')
  const [price, setPrice] = useState('')
  const [published, setPublished] = useState(true)
  const [error, setError] = useState('')

  const close = () => {
    if (create.isPending) return
    setFile(null)
    setPoster(null)
    setPreview(null)
    setTitle('')
    setDescription('')
    setTags('')
    setPrice('')
    setError('')
    setProgress(0)
    onClose()
  }

  async function submit() {
    setError('')
    if (!file) return setError('请选择要上传的视频')
    if (!title.trim()) return setError('请填写标题')
    const cents = kind === 'paid' ? parseYuanToCents(price) : 0
    if (kind === 'paid' && (!cents || cents <= 0)) return setError('付费视频请设置大于 0 的价格')
    setProgress(0)
    try {
      await create.mutateAsync({
        file,
        poster,
        preview,
        posterSecond: Number(posterSecond) || 0,
        fields: { title: title.trim(), description, tags, kind, price: cents ?? 0, published },
      })
      close()
    } catch (e) {
      setError(e instanceof ApiError ? e.message : '上传失败，请重试')
    }
  }

  return (
    <FormDialog open={open} title="上传视频" onClose={close} formId={FORM_ID} busy={create.isPending} submitLabel="上传" className="sm:max-w-xl">
      <form
        id={FORM_ID}
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault()
          void submit()
        }}
      >
        <Field label="视频文件" htmlFor="video-file" help="MP4、MOV 或 WebM，大小上限见站点配置「视频素材」">
          <Input id="video-file" type="file" accept="video/mp4,video/quicktime,video/webm" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </Field>
        {create.isPending && (
          <div>
            <div
              className="h-2 overflow-hidden rounded-full bg-zinc-800"
              role="progressbar"
              aria-valuenow={Math.round(progress * 100)}
              aria-valuemin={0}
              aria-valuemax={100}
            >
              <div className="h-full bg-brand-500 transition-all" style={{ width: `${Math.round(progress * 100)}%` }} />
            </div>
            <p className="mt-1 text-xs text-zinc-400" data-testid="upload-progress">
              {progress < 1 ? `上传中 ${Math.round(progress * 100)}%` : '上传完成，正在处理视频…'}
            </p>
          </div>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="封面图（可选）" htmlFor="video-poster">
            <Input id="video-poster" type="file" accept="image/jpeg,image/png,image/webp,image/gif" onChange={(e) => setPoster(e.target.files?.[0] ?? null)} />
          </Field>
          <Field label="未上传封面时取第几秒" htmlFor="video-poster-second">
            <Input
              id="video-poster-second"
              type="number"
              min={0}
              step={0.1}
              value={posterSecond}
              disabled={Boolean(poster)}
              onChange={(e) => setPosterSecond(e.target.value)}
            />
          </Field>
        </div>
        <Field label="标题" htmlFor="video-title">
          <Input id="video-title" value={title} maxLength={100} onChange={(e) => setTitle(e.target.value)} />
        </Field>
        <Field label="描述" htmlFor="video-description">
          <Textarea id="video-description" value={description} maxLength={2000} rows={3} onChange={(e) => setDescription(e.target.value)} />
        </Field>
        <Field label="标签" htmlFor="video-tags" help="多个标签用逗号分隔">
          <Input id="video-tags" value={tags} onChange={(e) => setTags(e.target.value)} />
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="类型" htmlFor="video-kind">
            <Select id="video-kind" value={kind} onChange={(e) => setKind(e.target.value as 'free' | 'paid')}>
              <option value="free">免费</option>
              <option value="paid">付费</option>
            </Select>
          </Field>
          {kind === 'paid' && (
            <Field label="价格（元）" htmlFor="video-price">
              <Input id="video-price" inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value)} />
            </Field>
          )}
        </div>
        {kind === 'paid' && (
          <Field label="预览片段（可选）" htmlFor="video-preview" help="不上传则自动截取开头几秒的低清片段；预览永远不是原片">
            <Input id="video-preview" type="file" accept="video/mp4,video/quicktime,video/webm" onChange={(e) => setPreview(e.target.files?.[0] ?? null)} />
          </Field>
        )}
        <SwitchRow id="video-published" label="上架" checked={published} onChange={setPublished} />
        {error && (
          <p role="alert" className="text-sm text-red-400">
            {error}
          </p>
        )}
      </form>
    </FormDialog>
  )
}
