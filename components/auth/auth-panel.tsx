import type { ReactNode } from 'react'
import type { ApiError } from '@/lib/api-client/request'

/** A titled block of the auth card. */
export function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div>
      <h1 className="mb-4 text-xl font-semibold text-white">{title}</h1>
      {children}
    </div>
  )
}

/** The server's own message (also for 5xx, where the request layer says only 系统错误). */
export function messageOf(error: ApiError): string {
  const body = error.body as { errMessage?: string } | undefined
  return body?.errMessage || error.message
}
