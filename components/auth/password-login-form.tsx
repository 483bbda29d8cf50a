'use client'

import Link from 'next/link'
import { useSearchParams } from 'next/navigation'
import { useState, type FormEvent } from 'react'
import { useSiteInfo } from '@/lib/api-client/resources/site-info'
import { usePasswordSignIn } from '@/lib/api-client/resources/auth'
import { Button } from '@/components/ui/button'
import { Field, Input } from '@/components/ui/field'
import { cn } from '@/lib/ui/cn'
import { useAction } from '@/lib/ui/use-action'
import { TERMS_REQUIRED, TermsConsent } from './terms-consent'
import { InviteNotice } from './invite-notice'
import { useInviteCode } from './use-invite-code'
import { useRedirectParam } from './use-redirect-param'
import { useSignIn } from './use-sign-in'

type Mode = 'login' | 'register'

/** /login_by_password: sign in, or create an account, with a username and password. */
export function PasswordLoginForm() {
  const params = useSearchParams()
  const [mode, setMode] = useState<Mode>(params.get('mode') === 'register' || params.get('invite') ? 'register' : 'login')
  const invite = useInviteCode()
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const [agreed, setAgreed] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [busy, run] = useAction()
  const { target, carry } = useRedirectParam()
  const { data: config } = useSiteInfo()
  const signInWith = usePasswordSignIn()
  const signIn = useSignIn()
  const canRegister = config?.REGISTER_ENABLED !== false

  async function submit(e: FormEvent) {
    e.preventDefault()
    setError(null)
    if (!username.trim() || !password) return setError('请输入用户名和密码')
    if (mode === 'register' && password !== confirm) return setError('两次输入的密码不一致')
    if (mode === 'register' && !agreed) return setError(TERMS_REQUIRED)
    await run(async () => {
      const { token } = await signInWith.mutateAsync(
        mode === 'login'
          ? { mode, body: { username: username.trim(), password } }
          : { mode, body: { username: username.trim(), password, agreeTerms: true, ...(invite ? { invite } : {}) } },
      )
      await signIn(token, target)
    })
  }

  const tab = (value: Mode, label: string) => (
    <button
      type="button"
      role="tab"
      aria-selected={mode === value}
      onClick={() => {
        setMode(value)
        setError(null)
      }}
      className={cn('flex-1 rounded-lg py-2 text-sm font-medium transition', mode === value ? 'bg-zinc-800 text-white' : 'text-zinc-400 hover:text-white')}
    >
      {label}
    </button>
  )

  return (
    <div>
      <div role="tablist" className="mb-6 flex gap-1 rounded-xl bg-zinc-950/60 p-1 ring-1 ring-zinc-800">
        {tab('login', '登录')}
        {canRegister && tab('register', '注册')}
      </div>
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field label="用户名" htmlFor="username" help={mode === 'register' ? '3-32 位字母、数字或下划线' : undefined}>
          <Input
            id="username"
            name="username"
            autoComplete="username"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            placeholder="请输入用户名"
          />
        </Field>
        <Field label="密码" htmlFor="password" help={mode === 'register' ? '至少 8 位' : undefined}>
          <Input
            id="password"
            name="password"
            type="password"
            autoComplete={mode === 'login' ? 'current-password' : 'new-password'}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            placeholder="请输入密码"
          />
        </Field>
        {mode === 'register' && (
          <Field label="确认密码" htmlFor="confirm">
            <Input
              id="confirm"
              name="confirm"
              type="password"
              autoComplete="new-password"
              value={confirm}
              onChange={(e) => setConfirm(e.target.value)}
              placeholder="请再次输入密码"
            />
          </Field>
        )}
        {mode === 'register' && <TermsConsent checked={agreed} onChange={setAgreed} />}
        {mode === 'register' && <InviteNotice />}
        {error && (
          <p role="alert" className="text-sm text-red-400">
            {error}
          </p>
        )}
        <Button type="submit" className="w-full" size="lg" loading={busy}>
          {mode === 'login' ? '登录' : '注册并登录'}
        </Button>
      </form>
      <div className="mt-6 text-center text-sm">
        <Link href={carry ? `/login?${carry}` : '/login'} className="text-zinc-400 hover:text-white">
          其他登录方式
        </Link>
      </div>
    </div>
  )
}
