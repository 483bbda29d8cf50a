'use client'

/**
 * What a page that failed on the server shows (docs/PRODUCT.md §2.6a): a Chinese sentence
 * and a way to try again, never the error itself (in production Next.js sends only a digest).
 * 重试 reloads: what failed was rendered on the server, so the server must render it again.
 */
export function ServerError() {
  return (
    <section role="alert" className="mx-auto flex min-h-[60vh] max-w-md flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <h1 className="text-xl font-semibold text-white">服务暂时不可用</h1>
      <p className="text-sm text-zinc-400">页面暂时无法加载，可能是系统正在维护或数据库暂时不可用，请稍后重试。</p>
      <button
        type="button"
        onClick={() => window.location.reload()}
        className="rounded-lg bg-white px-4 py-2 text-sm font-medium text-zinc-900 hover:bg-zinc-200"
      >
        重试
      </button>
    </section>
  )
}
