'use client'

import Link from 'next/link'
import { useRouter } from 'next/navigation'
import { useState, type FormEvent } from 'react'
import { canEnterAdmin } from '@/lib/auth/permissions'
import { SIGN_IN_TO_BIND_MOBILE } from '@/lib/auth/recent-sign-in'
import { ApiError } from '@/lib/api-client/request'
import { clearToken } from '@/lib/api-client/token-store'
import { loginUrlFor } from '@/lib/safe-redirect'
import { useSiteInfo } from '@/lib/api-client/resources/site-info'
import { useBindMobile } from '@/lib/api-client/resources/profile'
import { MOBILE_MESSAGE, MOBILE_PATTERN, maskMobile, normalizeMobile } from '@/lib/users/mobile'
import { toast } from '@/lib/ui/toast-store'
import { useAction } from '@/lib/ui/use-action'
import { RequireUser } from '@/components/app/require-user'
import { Button } from '@/components/ui/button'
import { useLogout } from '@/components/layout/use-logout'
import { SmsCodeFields } from './sms-code-fields'
import { useRedirectParam } from './use-redirect-param'

/** /bind_mobile: binds a phone to the signed-in account (the start-up rule sends users here when the site requires one). */
export function BindMobilePage() {
  return (
    <RequireUser>
      {(profile) => (profile.mobile ? <AlreadyBound mobile={profile.mobile} /> : <BindMobileForm staff={canEnterAdmin(profile.role)} />)}
    </RequireUser>
  )
}

function AlreadyBound({ mobile }: { mobile: string }) {
  const { target } = useRedirectParam()
  return (
    <div>
      <h1 className="text-xl font-semibold text-white">绑定手机号</h1>
      <p className="mt-4 text-sm text-zinc-300">你的账号已绑定手机号 {maskMobile(mobile)}。</p>
      <Link
        href={target}
        className="mt-6 inline-flex h-10 w-full items-center justify-center rounded-lg bg-zinc-800 text-sm font-medium text-zinc-100 ring-1 ring-zinc-700 hover:bg-zinc-700"
      >
        继续
      </Link>
    </div>
  )
}

/** `staff`: the console stays open to them without a phone (a broken SMS setup is fixed there). */
function BindMobileForm({ staff }: { staff: boolean }) {
  const { data: config } = useSiteInfo()
  const [mobile, setMobile] = useState('')
  const [code, setCode] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [tooOld, setTooOld] = useState(false)
  const [busy, run] = useAction()
  const { target } = useRedirectParam()
  const bindMobile = useBindMobile()
  const router = useRouter()
  const logout = useLogout()

  async function submit(e: FormEvent) {
    e.preventDefault()
    setError(null)
    const number = normalizeMobile(mobile)
    if (!MOBILE_PATTERN.test(number)) return setError(MOBILE_MESSAGE)
    if (!/^\d{6}$/.test(code)) return setError('请输入 6 位数字验证码')
    await run(async () => {
      await bindMobile.mutateAsync({ mobile: number, code })
      toast.success('手机号绑定成功')
      router.replace(target)
    }, noticeTooOld)
  }

  // Binding needs a recent sign-in: an older session is asked to sign in again first.
  function noticeTooOld(failure: unknown) {
    if (failure instanceof ApiError && failure.message === SIGN_IN_TO_BIND_MOBILE) setTooOld(true)
  }

  return (
    <div>
      <h1 className="text-xl font-semibold text-white">绑定手机号</h1>
      <p className="mt-1 text-sm text-zinc-400">{config?.MOBILE_ENABLED ? '根据本站要求，请先绑定手机号后继续使用' : '绑定后可以使用手机验证码登录'}</p>
      {tooOld ? (
        <SignInAgain />
      ) : (
        <form onSubmit={submit} className="mt-6 space-y-4" noValidate>
          <SmsCodeFields purpose="bind" mobile={mobile} code={code} onMobileChange={setMobile} onCodeChange={setCode} onSendError={noticeTooOld} />
          {error && (
            <p role="alert" className="text-sm text-red-400">
              {error}
            </p>
          )}
          <Button type="submit" className="w-full" size="lg" loading={busy}>
            绑定
          </Button>
        </form>
      )}
      <div className="mt-6 flex justify-center gap-6 text-sm">
        {!config?.MOBILE_ENABLED && (
          <Link href={target} className="text-zinc-400 hover:text-white">
            暂不绑定
          </Link>
        )}
        {staff && (
          <Link href="/admin" className="text-zinc-400 hover:text-white">
            进入管理后台
          </Link>
        )}
        <button type="button" onClick={logout} className="text-zinc-400 hover:text-white">
          退出登录
        </button>
      </div>
    </div>
  )
}

/** Drops this browser's token only (other devices stay signed in); the sign-in then goes on to where this page leads. */
function SignInAgain() {
  function signInAgain() {
    clearToken()
    // A full load on purpose: nothing cached for the old session survives.
    window.location.assign(loginUrlFor(window.location.pathname + window.location.search))
  }
  return (
    <div className="mt-6 space-y-4">
      <p role="alert" className="rounded-lg bg-amber-500/10 px-4 py-3 text-sm leading-relaxed text-amber-200 ring-1 ring-amber-500/30">
        {SIGN_IN_TO_BIND_MOBILE}。这样可以确认是你本人在操作，防止他人借用你的登录状态绑定自己的手机号。
      </p>
      <Button type="button" className="w-full" size="lg" onClick={signInAgain}>
        重新登录
      </Button>
    </div>
  )
}
