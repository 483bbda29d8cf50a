'use client'

import { useState, type FormEvent } from 'react'
import { useUpdateProfile, type ProfileJson } from '@/lib/api-client/resources/profile'
import { toast } from '@/lib/ui/toast-store'
import { useAction } from '@/lib/ui/use-action'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Field, Input } from '@/components/ui/field'

export function NameForm({ profile }: { profile: ProfileJson }) {
  const [name, setName] = useState(profile.name)
  const [busy, run] = useAction()
  const updateProfile = useUpdateProfile()

  async function save(e: FormEvent) {
    e.preventDefault()
    if (!name.trim()) return toast.error('昵称不能为空')
    await run(async () => {
      await updateProfile.mutateAsync({ name: name.trim() })
      toast.success('已保存')
    })
  }

  return (
    <Card>
      <form onSubmit={save} className="flex flex-wrap items-end gap-3">
        <Field label="昵称" htmlFor="name" className="min-w-48 flex-1">
          <Input id="name" value={name} maxLength={32} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Button type="submit" loading={busy} disabled={name.trim() === profile.name}>
          保存昵称
        </Button>
      </form>
    </Card>
  )
}
