'use client'

import { useState, type FormEvent } from 'react'
import { useSiteInfo } from '@/lib/api-client/resources/site-info'
import { useSmsSignIn } from '@/lib/api-client/resources/sms'
import { MOBILE_MESSAGE, MOBILE_PATTERN, normalizeMobile } from '@/lib/users/mobile'
import { useAction } from '@/lib/ui/use-action'
import { Button } from '@/components/ui/button'
import { OtherSignInLink } from './other-sign-in-link'
import { SmsCodeFields } from './sms-code-fields'
import { TERMS_REQUIRED, TermsConsent } from './terms-consent'
import { useInviteCode } from './use-invite-code'
import { useRedirectParam } from './use-redirect-param'
import { useSignIn } from './use-sign-in'

/** /login/fastlogin: phone + code; the first sign-in creates the account. */
export function SmsLoginForm() {
  const { data: config } = useSiteInfo()
  const [mobile, setMobile] = useState('')
  const [code, setCode] = useState('')
  const [agreed, setAgreed] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [busy, run] = useAction()
  const { target } = useRedirectParam()
  const signIn = useSignIn()
  const smsSignIn = useSmsSignIn()
  const invite = useInviteCode()

  async function submit(e: FormEvent) {
    e.preventDefault()
    setError(null)
    const number = normalizeMobile(mobile)
    if (!MOBILE_PATTERN.test(number)) return setError(MOBILE_MESSAGE)
    if (!/^\d{6}$/.test(code)) return setError('请输入 6 位数字验证码')
    if (!agreed) return setError(TERMS_REQUIRED)
    await run(async () => {
      const { token } = await smsSignIn.mutateAsync({ mobile: number, code, agreeTerms: true, ...(invite ? { invite } : {}) })
      await signIn(token, target)
    })
  }

  return (
    <div>
      <h1 className="text-xl font-semibold text-white">手机验证码登录</h1>
      {config?.SMS_LOGIN_ENABLED ? (
        <>
          <p className="mt-1 text-sm text-zinc-400">未注册的手机号验证后将自动创建账号</p>
          <form onSubmit={submit} className="mt-6 space-y-4" noValidate>
            <SmsCodeFields purpose="login" mobile={mobile} code={code} onMobileChange={setMobile} onCodeChange={setCode} />
            {/* The first sign-in with a phone creates the account: the same consent as a sign-up. */}
            <TermsConsent checked={agreed} onChange={setAgreed} />
            {error && (
              <p role="alert" className="text-sm text-red-400">
                {error}
              </p>
            )}
            <Button type="submit" className="w-full" size="lg" loading={busy}>
              登录
            </Button>
          </form>
        </>
      ) : (
        <p role="status" className="mt-4 rounded-xl bg-zinc-950/60 p-4 text-sm leading-relaxed text-zinc-300 ring-1 ring-zinc-800">
          本站未开启手机验证码登录，请使用其他方式登录。
        </p>
      )}
      <OtherSignInLink />
    </div>
  )
}
