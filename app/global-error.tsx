'use client'

import { ServerError } from '@/components/app/server-error'
import './globals.css'

/**
 * The root layout itself failed (it reads the site settings, so the database being out of
 * reach lands here): the whole document, in Chinese (docs/PRODUCT.md §2.6a).
 */
export default function GlobalError() {
  return (
    <html lang="zh-CN" className="dark">
      <body className="font-sans antialiased">
        <title>服务暂时不可用</title>
        <ServerError />
      </body>
    </html>
  )
}
