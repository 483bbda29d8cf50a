'use client'

import { useState, type FormEvent } from 'react'
import { useCreateUser, useUpdateUser } from '@/lib/api-client/resources/admin-users'
import { assignableRoles } from '@/lib/auth/permissions'
import type { Role } from '@/lib/generated/prisma/enums'
import { ROLE_LABELS } from '@/lib/users/role-labels'
import { toast } from '@/lib/ui/toast-store'
import { useAction } from '@/lib/ui/use-action'
import { Field, Input, LabelOptions, Select, SwitchRow } from '@/components/ui/field'
import { FormDialog } from '@/components/ui/form-dialog'
import { changedFields, startingValues } from './user-form-changes'
import type { UserRow } from './user-manager'

/** Creates a user (user = null) or edits one: name, role, mobile, ban, password reset. */
export function UserFormDialog({ actorRole, user, onClose, onSaved }: { actorRole: Role; user: UserRow | null; onClose: () => void; onSaved: () => void }) {
  const isNew = user === null
  const [start] = useState(() => startingValues(user))
  const [username, setUsername] = useState('')
  const [name, setName] = useState(start.name)
  const [role, setRole] = useState<Role>(start.role)
  const [mobile, setMobile] = useState(start.mobile)
  const [password, setPassword] = useState('')
  const [banned, setBanned] = useState(start.banned)
  const [busy, run] = useAction()
  const roles = assignableRoles(actorRole)
  const createUser = useCreateUser()
  const updateUser = useUpdateUser()

  async function save(e: FormEvent) {
    e.preventDefault()
    if (isNew && (!username.trim() || !password)) return toast.error('请填写用户名和初始密码')
    if (!name.trim()) return toast.error('昵称不能为空')
    const changes = changedFields(start, { name, role, mobile, banned, password })
    if (!isNew && Object.keys(changes).length === 0) return onClose()
    await run(async () => {
      if (isNew) {
        await createUser.mutateAsync({ username: username.trim(), name: name.trim(), password, role, mobile: mobile.trim() })
        toast.success('用户已创建')
      } else {
        await updateUser.mutateAsync({ id: user.id, body: changes })
        toast.success('已保存')
      }
      onSaved()
    })
  }

  return (
    <FormDialog title={isNew ? '新建用户' : `编辑用户 ${user.username}`} onClose={onClose} formId="user-form" busy={busy}>
      <form id="user-form" onSubmit={save} className="space-y-4">
        {isNew && (
          <Field label="用户名" htmlFor="uf-username" help="3-32 位字母、数字或下划线">
            <Input id="uf-username" value={username} onChange={(e) => setUsername(e.target.value)} autoComplete="off" />
          </Field>
        )}
        <Field label="昵称" htmlFor="uf-name">
          <Input id="uf-name" value={name} onChange={(e) => setName(e.target.value)} maxLength={32} />
        </Field>
        <Field label="角色" htmlFor="uf-role">
          <Select id="uf-role" value={role} onChange={(e) => setRole(e.target.value as Role)} disabled={roles.length <= 1}>
            <LabelOptions labels={ROLE_LABELS} keys={roles.includes(role) ? roles : [role, ...roles]} />
          </Select>
        </Field>
        <Field label="手机号" htmlFor="uf-mobile" help="可留空">
          <Input id="uf-mobile" value={mobile} onChange={(e) => setMobile(e.target.value)} inputMode="numeric" maxLength={11} />
        </Field>
        <Field label={isNew ? '初始密码' : '重置密码'} htmlFor="uf-password" help={isNew ? '至少 8 位' : '留空则不修改；修改后该用户需重新登录'}>
          <Input id="uf-password" type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="new-password" />
        </Field>
        {!isNew && <SwitchRow id="uf-banned" label="禁用账号" checked={banned} onChange={setBanned} />}
      </form>
    </FormDialog>
  )
}
