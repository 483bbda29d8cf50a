'use client'

import { forwardRef, useCallback, useImperativeHandle, useRef, useState, type PointerEvent } from 'react'
import { cn } from '@/lib/ui/cn'
import { Button } from '@/components/ui/button'

export type MaskPainterHandle = {
  /** The mask at the picture's own size: white where painted (to repaint), black elsewhere; null when nothing is painted. */
  exportMask(): Promise<Blob | null>
}

const MAX_UNDO = 20

/** Paint over a picture the area to redraw: brush and eraser, size, undo, clear. */
export const MaskPainter = forwardRef<MaskPainterHandle, { imageUrl: string; width: number; height: number }>(function MaskPainter(
  { imageUrl, width, height },
  ref,
) {
  const canvas = useRef<HTMLCanvasElement>(null)
  const history = useRef<ImageData[]>([])
  const last = useRef<{ x: number; y: number } | null>(null)
  const [brush, setBrush] = useState(Math.round(Math.max(width, height) / 20))
  const [isEraser, setIsEraser] = useState(false)
  const [hasPaint, setHasPaint] = useState(false)
  const [undoCount, setUndoCount] = useState(0)

  const context = () => canvas.current!.getContext('2d', { willReadFrequently: true })!
  const point = (e: PointerEvent<HTMLCanvasElement>) => {
    const box = canvas.current!.getBoundingClientRect()
    return { x: ((e.clientX - box.left) / box.width) * width, y: ((e.clientY - box.top) / box.height) * height }
  }

  const stroke = (from: { x: number; y: number }, to: { x: number; y: number }) => {
    const ctx = context()
    ctx.globalCompositeOperation = isEraser ? 'destination-out' : 'source-over'
    ctx.strokeStyle = '#ff2d6f'
    ctx.lineWidth = brush
    ctx.lineCap = 'round'
    ctx.lineJoin = 'round'
    ctx.beginPath()
    ctx.moveTo(from.x, from.y)
    ctx.lineTo(to.x, to.y)
    ctx.stroke()
  }

  function down(e: PointerEvent<HTMLCanvasElement>) {
    canvas.current!.setPointerCapture(e.pointerId)
    history.current = [...history.current.slice(-(MAX_UNDO - 1)), context().getImageData(0, 0, width, height)]
    setUndoCount(history.current.length)
    last.current = point(e)
    stroke(last.current, last.current)
    if (!isEraser) setHasPaint(true)
  }

  function move(e: PointerEvent<HTMLCanvasElement>) {
    if (!last.current) return
    const next = point(e)
    stroke(last.current, next)
    last.current = next
  }

  const up = () => (last.current = null)

  function undo() {
    const previous = history.current.pop()
    if (previous) context().putImageData(previous, 0, 0)
    setUndoCount(history.current.length)
    setHasPaint(history.current.length > 0 || hasPaint)
  }

  function clear() {
    context().clearRect(0, 0, width, height)
    history.current = []
    setUndoCount(0)
    setHasPaint(false)
  }

  const exportMask = useCallback(async () => {
    const painted = context().getImageData(0, 0, width, height)
    const out = new ImageData(width, height)
    let any = false
    for (let i = 0; i < painted.data.length; i += 4) {
      const on = (painted.data[i + 3] ?? 0) > 0
      any ||= on
      const v = on ? 255 : 0
      out.data[i] = out.data[i + 1] = out.data[i + 2] = v
      out.data[i + 3] = 255
    }
    if (!any) return null
    const target = document.createElement('canvas')
    target.width = width
    target.height = height
    target.getContext('2d')!.putImageData(out, 0, 0)
    return new Promise<Blob | null>((resolve) => target.toBlob(resolve, 'image/png'))
  }, [width, height])

  useImperativeHandle(ref, () => ({ exportMask }), [exportMask])

  return (
    <div className="space-y-3">
      <div className="relative overflow-hidden rounded-xl bg-zinc-950 ring-1 ring-zinc-800" style={{ aspectRatio: `${width} / ${height}` }}>
        <img src={imageUrl} alt="原图" className="absolute inset-0 h-full w-full select-none object-contain" draggable={false} />
        <canvas
          ref={canvas}
          width={width}
          height={height}
          aria-label="蒙版画布"
          className={cn('absolute inset-0 h-full w-full touch-none opacity-60', isEraser ? 'cursor-cell' : 'cursor-crosshair')}
          onPointerDown={down}
          onPointerMove={move}
          onPointerUp={up}
          onPointerCancel={up}
          onPointerLeave={up}
        />
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Button size="sm" variant={isEraser ? 'secondary' : 'primary'} onClick={() => setIsEraser(false)} aria-pressed={!isEraser}>
          画笔
        </Button>
        <Button size="sm" variant={isEraser ? 'primary' : 'secondary'} onClick={() => setIsEraser(true)} aria-pressed={isEraser}>
          橡皮
        </Button>
        <label className="flex items-center gap-2 text-xs text-zinc-400">
          笔刷
          <input
            type="range"
            min={4}
            max={Math.round(Math.max(width, height) / 6)}
            value={brush}
            onChange={(e) => setBrush(Number(e.target.value))}
            className="w-28 accent-brand-500"
            aria-label="笔刷大小"
          />
        </label>
        <Button size="sm" variant="ghost" onClick={undo} disabled={undoCount === 0}>
          撤销
        </Button>
        <Button size="sm" variant="ghost" onClick={clear} disabled={!hasPaint && undoCount === 0}>
          清除
        </Button>
      </div>
      <p className="text-xs text-zinc-500">用画笔涂抹需要重绘的区域，未涂抹的部分保持不变。</p>
    </div>
  )
})
