'use client'

import QRCode from 'qrcode'
import { useEffect, useState } from 'react'
import { Spinner } from '@/components/ui/spinner'

const W = 600
const H = 900

/**
 * The share poster, drawn on a canvas in the page and shown as a PNG <img>: inside WeChat a
 * long press saves it (docs/DECISIONS.md: drawn in the browser, whose fonts always have
 * Chinese, rather than on the server, which may have no CJK font).
 */
async function drawPoster(link: string, code: string, siteName: string): Promise<string> {
  const canvas = document.createElement('canvas')
  canvas.width = W
  canvas.height = H
  const ctx = canvas.getContext('2d')
  if (!ctx) throw new Error('canvas unavailable')
  const bg = ctx.createLinearGradient(0, 0, W, H)
  bg.addColorStop(0, '#18181b')
  bg.addColorStop(1, '#3b0764')
  ctx.fillStyle = bg
  ctx.fillRect(0, 0, W, H)
  ctx.textAlign = 'center'
  ctx.fillStyle = '#ffffff'
  ctx.font = 'bold 44px system-ui, "PingFang SC", "Noto Sans CJK SC", "Microsoft YaHei", sans-serif'
  ctx.fillText(siteName || 'AI 绘画', W / 2, 130)
  ctx.fillStyle = '#d4d4d8'
  ctx.font = '28px system-ui, "PingFang SC", "Noto Sans CJK SC", "Microsoft YaHei", sans-serif'
  ctx.fillText('邀请你一起用 AI 创作图片', W / 2, 190)

  const qr = new Image()
  qr.src = await QRCode.toDataURL(link, { margin: 1, width: 340, errorCorrectionLevel: 'M' })
  await qr.decode()
  ctx.fillStyle = '#ffffff'
  ctx.beginPath()
  ctx.roundRect((W - 380) / 2, 250, 380, 380, 24)
  ctx.fill()
  ctx.drawImage(qr, (W - 340) / 2, 270, 340, 340)

  ctx.fillStyle = '#e4e4e7'
  ctx.font = '26px system-ui, "PingFang SC", "Noto Sans CJK SC", "Microsoft YaHei", sans-serif'
  ctx.fillText('邀请码', W / 2, 700)
  ctx.fillStyle = '#ffffff'
  ctx.font = 'bold 48px ui-monospace, Menlo, monospace'
  ctx.fillText(code, W / 2, 760)
  ctx.fillStyle = '#a1a1aa'
  ctx.font = '24px system-ui, "PingFang SC", "Noto Sans CJK SC", "Microsoft YaHei", sans-serif'
  ctx.fillText('扫码或长按识别二维码注册', W / 2, 830)
  return canvas.toDataURL('image/png')
}

export function InvitePoster({ link, code, siteName }: { link: string; code: string; siteName: string }) {
  const [src, setSrc] = useState<string | null>(null)
  const [failed, setFailed] = useState(false)
  useEffect(() => {
    let live = true
    drawPoster(link, code, siteName)
      .then((url) => live && setSrc(url))
      .catch(() => live && setFailed(true))
    return () => {
      live = false
    }
  }, [link, code, siteName])
  return (
    <div className="mx-auto aspect-[2/3] w-full max-w-[300px] overflow-hidden rounded-xl bg-zinc-900 ring-1 ring-zinc-800">
      {src ? (
        // A data: URL drawn in the page: next/image has nothing to optimise.
        <img src={src} alt="邀请海报" data-testid="invite-poster" width={W} height={H} className="size-full" />
      ) : (
        <div className="flex size-full items-center justify-center text-sm text-zinc-500">
          {failed ? '海报生成失败，请复制链接分享' : <Spinner className="size-6" />}
        </div>
      )}
    </div>
  )
}
