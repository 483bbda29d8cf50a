import type { Metadata } from 'next'
import Link from 'next/link'
import { MainShell } from '@/components/layout/main-shell'

export const metadata: Metadata = { title: '页面不存在' }

/** Any unknown page: our own Chinese 404 inside the main layout, with a way back (docs/PRODUCT.md §2). */
export default function NotFound() {
  return (
    <MainShell>
      <section className="mx-auto flex min-h-[50vh] max-w-md flex-col items-center justify-center gap-4 px-4 py-16 text-center">
        <p className="text-5xl font-semibold text-zinc-600">404</p>
        <h1 className="text-xl font-semibold text-white">页面不存在</h1>
        <p className="text-sm text-zinc-400">您访问的页面不存在或已被移除，请检查地址是否正确。</p>
        <div className="flex gap-3">
          <Link href="/" className="rounded-lg bg-white px-4 py-2 text-sm font-medium text-zinc-900 hover:bg-zinc-200">
            返回首页
          </Link>
          <Link href="/image_wall" className="rounded-lg border border-zinc-700 px-4 py-2 text-sm text-zinc-300 hover:text-white">
            逛逛作品墙
          </Link>
        </div>
      </section>
    </MainShell>
  )
}
