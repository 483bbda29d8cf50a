'use client'

import { useRef, useState } from 'react'
import type { PressBody } from '@/lib/api-client/resources/mj'
import { useUploadPainted } from '@/lib/api-client/resources/uploads'
import type { StoredImage } from '@/lib/generation/store-results'
import { splitPrompt } from '@/lib/mj/compose-prompt'
import { toast } from '@/lib/ui/toast-store'
import { useAction } from '@/lib/ui/use-action'
import { Button } from '@/components/ui/button'
import { Dialog } from '@/components/ui/dialog'
import { Field, Textarea } from '@/components/ui/field'
import { MaskPainter, type MaskPainterHandle } from '@/components/create/mask-painter'

type Props = {
  open: boolean
  image: StoredImage
  prompt: string
  cost: number
  onClose: () => void
  onConfirm: (body: Omit<PressBody, 'customId'>) => Promise<unknown>
}

/** Vary (Region): paint the area Midjourney should redo, optionally say what goes there. */
export function VaryRegionDialog({ open, image, prompt, cost, onClose, onConfirm }: Props) {
  const painter = useRef<MaskPainterHandle>(null)
  const [text, setText] = useState(splitPrompt(prompt).description)
  const [busy, run] = useAction()
  const upload = useUploadPainted()

  async function confirm() {
    const mask = await painter.current?.exportMask()
    if (!mask) return toast.error('请在图片上涂抹要重绘的区域')
    await run(async () => {
      const uploaded = await upload.send(mask)
      await onConfirm({ maskImageId: uploaded.id, ...(text.trim() ? { prompt: text.trim() } : {}) })
    })
  }

  return (
    <Dialog
      open={open}
      title="局部重绘"
      onClose={onClose}
      className="sm:max-w-2xl"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            取消
          </Button>
          <Button loading={busy} onClick={confirm}>
            重绘选区（{cost} 积分）
          </Button>
        </>
      }
    >
      <div className="space-y-4">
        <MaskPainter imageUrl={image.url} width={image.width} height={image.height} />
        <Field label="选区里画什么（可选）" htmlFor="mj-region-prompt" help="留空则沿用原提示词">
          <Textarea id="mj-region-prompt" rows={2} maxLength={2000} value={text} onChange={(e) => setText(e.target.value)} />
        </Field>
      </div>
    </Dialog>
  )
}

/** Custom Zoom: how far to zoom out (1-2) and the prompt for the new surroundings. */
export function CustomZoomDialog({ open, prompt, cost, onClose, onConfirm }: Omit<Props, 'image'>) {
  const [text, setText] = useState(splitPrompt(prompt).description)
  const [zoom, setZoom] = useState(1.5)
  const [busy, run] = useAction()

  const confirm = () => (text.trim() ? run(() => onConfirm({ prompt: `${text.trim()} --zoom ${zoom}` })) : toast.error('请输入提示词'))

  return (
    <Dialog
      open={open}
      title="自定义缩放"
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            取消
          </Button>
          <Button loading={busy} onClick={confirm}>
            缩放（{cost} 积分）
          </Button>
        </>
      }
    >
      <div className="space-y-4">
        <Field label="提示词" htmlFor="mj-zoom-prompt" help="描述缩小后画面外扩出来的部分">
          <Textarea id="mj-zoom-prompt" rows={3} maxLength={1900} value={text} onChange={(e) => setText(e.target.value)} />
        </Field>
        <Field label={`缩放倍数 ${zoom.toFixed(1)}x`} htmlFor="mj-zoom">
          <input
            id="mj-zoom"
            type="range"
            min={1}
            max={2}
            step={0.1}
            value={zoom}
            onChange={(e) => setZoom(Number(e.target.value))}
            className="w-full accent-brand-500"
          />
        </Field>
      </div>
    </Dialog>
  )
}
