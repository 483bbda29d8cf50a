import type { Metadata, Viewport } from 'next'
import type { ReactNode } from 'react'
import { Providers } from '@/components/app/providers'
import { getPublicConfig } from '@/lib/site-config/get-public-config'
import './globals.css'

// Every page reads the live site settings (title, logo), so none is prerendered.
export const dynamic = 'force-dynamic'

/** docs/PRODUCT.md §2: the page title and icon come from the site config name and logo. */
export async function generateMetadata(): Promise<Metadata> {
  const config = await getPublicConfig()
  return {
    title: { default: config.name, template: `%s - ${config.name}` },
    description: config.description,
    icons: config.logo ? { icon: config.logo } : undefined,
  }
}

export const viewport: Viewport = { themeColor: '#09090b', width: 'device-width', initialScale: 1, viewportFit: 'cover' }

export default async function RootLayout({ children }: { children: ReactNode }) {
  const config = await getPublicConfig()
  return (
    <html lang="zh-CN" className="dark">
      <body className="font-sans antialiased">
        <Providers siteInfo={config}>{children}</Providers>
      </body>
    </html>
  )
}
