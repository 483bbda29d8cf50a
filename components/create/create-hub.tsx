'use client'

import Link from 'next/link'
import { usePathname, useRouter, useSearchParams } from 'next/navigation'
import { cn } from '@/lib/ui/cn'
import { PageTitle } from '@/components/ui/card'
import { InpaintStudio } from './inpaint-studio'
import { LineartStudio } from './lineart-studio'
import { SdStudio } from './sd-studio'
import { Img2ImgStudio } from './img2img-studio'
import { useCustomModels } from '@/lib/api-client/resources/custom-models'
import { useModels } from '@/lib/api-client/resources/models'
import { hasMjModel, hasVideoModel } from './use-catalog'
import { XiaolimaoStudio } from './xiaolimao-studio'

type Mode = 'sd' | 'img2img' | 'mj' | 'inpaint' | 'lineart' | 'xiaolimao' | 'video'

/** /text2img_v2: one creation page with the generation mode picker (docs/PRODUCT.md §3.2). */
export function CreateHub() {
  const params = useSearchParams()
  const router = useRouter()
  const pathname = usePathname()
  const { data: models } = useModels()
  const { data: presets } = useCustomModels()
  // Modes appear only when something can run them: MJ needs an MJ model, 小狸猫 a preset.
  const hasMj = hasMjModel(models) ?? false
  const hasVideo = hasVideoModel(models) ?? false
  const hasPresets = (presets?.length ?? 0) > 0
  const modes: Array<{ value: Mode; label: string }> = [
    { value: 'sd', label: 'SD 文生图' },
    { value: 'img2img', label: '图生图' },
    ...(hasMj ? [{ value: 'mj' as const, label: 'MJ' }] : []),
    { value: 'inpaint', label: '局部重绘' },
    { value: 'lineart', label: '线稿上色' },
    ...(hasPresets ? [{ value: 'xiaolimao' as const, label: '小狸猫' }] : []),
    ...(hasVideo ? [{ value: 'video' as const, label: 'AI 视频' }] : []),
  ]
  // Midjourney and video have pages of their own: their tabs lead there.
  const PAGES: Partial<Record<Mode, string>> = { mj: '/mj', video: '/ai_video' }
  const requested = params.get('mode') as Mode | null
  const mode = modes.some((m) => m.value === requested) ? requested! : 'sd'

  return (
    <div>
      <PageTitle>AI 创作</PageTitle>
      <div role="tablist" aria-label="生成模式" className="mb-6 flex gap-1 overflow-x-auto rounded-xl bg-zinc-900/70 p-1 ring-1 ring-zinc-800">
        {modes.map((m) =>
          PAGES[m.value] ? (
            <Link
              key={m.value}
              href={PAGES[m.value]!}
              role="tab"
              aria-selected={false}
              className="shrink-0 rounded-lg px-4 py-2 text-sm text-zinc-400 transition hover:text-white"
            >
              {m.label}
            </Link>
          ) : (
            <button
              key={m.value}
              type="button"
              role="tab"
              aria-selected={mode === m.value}
              onClick={() => router.replace(`${pathname}?mode=${m.value}`, { scroll: false })}
              className={cn(
                'shrink-0 rounded-lg px-4 py-2 text-sm transition',
                mode === m.value ? 'bg-zinc-800 font-medium text-white' : 'text-zinc-400 hover:text-white',
              )}
            >
              {m.label}
            </button>
          ),
        )}
      </div>
      {mode === 'sd' && <SdStudio type="SD_TEXT2IMG" historyTypes={['SD_TEXT2IMG', 'MAKE_SAME']} />}
      {mode === 'img2img' && <Img2ImgStudio />}
      {mode === 'inpaint' && <InpaintStudio />}
      {mode === 'lineart' && <LineartStudio />}
      {mode === 'xiaolimao' && <XiaolimaoStudio />}
    </div>
  )
}
