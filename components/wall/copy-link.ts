import { toast } from '@/lib/ui/toast-store'

/** Copies a link of this site to the clipboard (or says it cannot, showing the link). */
export async function copyLink(path: string): Promise<void> {
  const url = new URL(path, window.location.origin).toString()
  try {
    await navigator.clipboard.writeText(url)
    toast.success('链接已复制')
  } catch {
    toast.info(`请复制链接：${url}`)
  }
}
