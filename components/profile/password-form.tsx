'use client'

import { useState, type FormEvent } from 'react'
import { useChangePassword, type ProfileJson } from '@/lib/api-client/resources/profile'
import { toast } from '@/lib/ui/toast-store'
import { useAction } from '@/lib/ui/use-action'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Field, Input } from '@/components/ui/field'

/**
 * Changing the password signs out every other device; this one gets a fresh token. An
 * account made by WeChat or SMS has none yet: it leaves 当前密码 empty and sets one within
 * 10 minutes of signing in, then signs in with its username too.
 */
export function PasswordForm({ profile }: { profile: ProfileJson }) {
  const [current, setCurrent] = useState('')
  const [next, setNext] = useState('')
  const [confirm, setConfirm] = useState('')
  const [busy, run] = useAction()
  const changePassword = useChangePassword()

  async function save(e: FormEvent) {
    e.preventDefault()
    if (next.length < 8) return toast.error('新密码至少 8 位')
    if (next !== confirm) return toast.error('两次输入的新密码不一致')
    await run(async () => {
      await changePassword.mutateAsync({ currentPassword: current, newPassword: next })
      setCurrent('')
      setNext('')
      setConfirm('')
      toast.success('密码已修改，其他设备需要重新登录')
    })
  }

  return (
    <Card>
      <h2 className="mb-4 font-medium text-white">修改密码</h2>
      <form onSubmit={save} className="grid gap-4 sm:grid-cols-3">
        <Field label="当前密码" htmlFor="current-password">
          <Input id="current-password" type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
        </Field>
        <Field label="新密码" htmlFor="new-password">
          <Input id="new-password" type="password" autoComplete="new-password" value={next} onChange={(e) => setNext(e.target.value)} />
        </Field>
        <Field label="确认新密码" htmlFor="confirm-password">
          <Input id="confirm-password" type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} />
        </Field>
        <p className="text-xs leading-relaxed text-zinc-500 sm:col-span-3">
          用微信或短信登录、还没有密码的账号：当前密码留空，登录后 10 分钟内可设置；设置后也可用用户名 {profile.username} 和密码登录。
        </p>
        <div className="sm:col-span-3">
          <Button type="submit" loading={busy}>
            修改密码
          </Button>
        </div>
      </form>
    </Card>
  )
}
