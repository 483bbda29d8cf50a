'use client'

import type { ReactNode } from 'react'
import Lightbox, { type Slide } from 'yet-another-react-lightbox'
import Video from 'yet-another-react-lightbox/plugins/video'
import Zoom from 'yet-another-react-lightbox/plugins/zoom'
import 'yet-another-react-lightbox/styles.css'

/** A picture, or a clip (`video`: its MP4, played over `src` as the poster). */
export type ViewerSlide = { key: string; src: string; width: number; height: number; alt: string; video?: string }

function toSlide({ video, ...s }: ViewerSlide): Slide {
  return video ? { ...s, type: 'video', poster: s.src, sources: [{ src: video, type: 'video/mp4' }] } : s
}

const LABELS = {
  Previous: '上一张',
  Next: '下一张',
  Close: '关闭',
  'Zoom in': '放大',
  'Zoom out': '缩小',
  Lightbox: '作品查看',
  Carousel: '作品',
  Slide: '作品',
}

/**
 * The one result viewer (wall, explore, showcase, creation pages, history, /mj): keyboard
 * (← → Esc), swipe, pinch and wheel zoom, clips played with the browser's controls; `panel` draws the facts and actions of the
 * slide shown, beside it on a wide screen and under it on a phone.
 */
export function ImageViewer({
  slides,
  index,
  onIndexChange,
  onClose,
  panel,
}: {
  slides: ViewerSlide[]
  /** The open slide, or -1 when closed. */
  index: number
  onIndexChange: (index: number) => void
  onClose: () => void
  panel: (index: number) => ReactNode
}) {
  return (
    <Lightbox
      className="work-viewer"
      open={index >= 0}
      index={Math.max(0, index)}
      close={onClose}
      slides={slides.map(toSlide)}
      plugins={[Zoom, Video]}
      zoom={{ maxZoomPixelRatio: 3, scrollToZoom: true }}
      video={{ controls: true, playsInline: true, preload: 'metadata' }}
      carousel={{ finite: slides.length <= 1, preload: 1 }}
      controller={{ closeOnBackdropClick: false }}
      labels={LABELS}
      on={{ view: ({ index: next }) => onIndexChange(next) }}
      render={{
        ...(slides.length <= 1 ? { buttonPrev: () => null, buttonNext: () => null } : {}),
        controls: () => (index >= 0 ? <div className="work-viewer-panel">{panel(index)}</div> : null),
      }}
    />
  )
}

/** True inside WeChat's browser, where a download link does nothing: the viewer says 长按保存 instead. */
export function isWeChat(): boolean {
  return typeof navigator !== 'undefined' && /MicroMessenger/i.test(navigator.userAgent)
}

/** A fact row of a viewer's panel; user text is rendered as text. */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  if (children === null || children === undefined || children === '') return null
  return (
    <div className="flex gap-3 text-xs">
      <dt className="w-14 shrink-0 text-zinc-500">{label}</dt>
      <dd className="min-w-0 break-words text-zinc-200">{children}</dd>
    </div>
  )
}
