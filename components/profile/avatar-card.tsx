'use client'

import { useRef } from 'react'
import { useUploadAvatar, type ProfileJson } from '@/lib/api-client/resources/profile'
import { formatDateTime } from '@/lib/format'
import { toast } from '@/lib/ui/toast-store'
import { useAction } from '@/lib/ui/use-action'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { ROLE_LABELS } from '@/lib/users/role-labels'

const MAX_BYTES = 10 * 1024 * 1024

export function AvatarCard({ profile }: { profile: ProfileJson }) {
  const input = useRef<HTMLInputElement>(null)
  const [busy, run] = useAction()
  const uploadAvatar = useUploadAvatar()

  async function upload(file: File | undefined) {
    if (!file) return
    if (file.size > MAX_BYTES) return toast.error('文件不能超过 10MB')
    await run(async () => {
      await uploadAvatar.mutateAsync(file)
      toast.success('头像已更新')
    })
    if (input.current) input.current.value = ''
  }

  return (
    <Card>
      <div className="flex flex-wrap items-center gap-5">
        <img src={profile.avatar} alt="头像" className="size-20 rounded-full object-cover ring-2 ring-zinc-800" />
        <div className="min-w-0 flex-1 space-y-1 text-sm">
          <div className="text-lg font-medium text-white">{profile.name}</div>
          <div className="text-zinc-400">用户名：{profile.username}</div>
          <div className="text-zinc-400">角色：{ROLE_LABELS[profile.role]}</div>
          <div className="text-zinc-400">手机号：{profile.mobile ?? '未绑定'}</div>
          <div className="text-zinc-500">注册于 {formatDateTime(profile.createdAt)}</div>
        </div>
        <div>
          <input
            ref={input}
            type="file"
            accept="image/png,image/jpeg,image/webp,image/gif"
            className="hidden"
            onChange={(e) => upload(e.target.files?.[0])}
            aria-label="选择头像图片"
          />
          <Button variant="secondary" loading={busy} onClick={() => input.current?.click()}>
            更换头像
          </Button>
        </div>
      </div>
    </Card>
  )
}
