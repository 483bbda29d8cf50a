'use client'

import QRCode from 'qrcode'
import { useEffect, useState } from 'react'
import { Spinner } from '@/components/ui/spinner'

/** A QR picture of a provider's raw code text (WeChat code_url, Alipay qr_code). */
export function QrCode({ text, label }: { text: string; label: string }) {
  const [src, setSrc] = useState<string | null>(null)
  useEffect(() => {
    let live = true
    QRCode.toDataURL(text, { margin: 1, width: 220, errorCorrectionLevel: 'M' })
      .then((url) => live && setSrc(url))
      .catch(() => live && setSrc(null))
    return () => {
      live = false
    }
  }, [text])
  return (
    <div className="mx-auto flex size-[236px] items-center justify-center rounded-xl bg-white p-2">
      {/* A data: URL made in the page: next/image has nothing to optimise. */}
      {src ? <img src={src} alt={label} data-testid="pay-qr" data-code={text} width={220} height={220} /> : <Spinner className="size-6 text-zinc-500" />}
    </div>
  )
}
