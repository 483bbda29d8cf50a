'use client'

import { useState } from 'react'
import { useSendSmsCode } from '@/lib/api-client/resources/sms'
import { MOBILE_MESSAGE, MOBILE_PATTERN, normalizeMobile } from '@/lib/users/mobile'
import { toast } from '@/lib/ui/toast-store'
import { useAction } from '@/lib/ui/use-action'
import { Button } from '@/components/ui/button'
import { Field, Input } from '@/components/ui/field'
import { useCountdown } from './use-countdown'

/** A trial site (the `log` provider) sends no SMS: the code is in the server's log. */
export const SMS_LOG_SENT = '试用站点：验证码已写入服务器日志'

type Sent = { mobile: string; toLog: boolean }

type Props = {
  purpose: 'login' | 'bind'
  mobile: string
  code: string
  onMobileChange(value: string): void
  onCodeChange(value: string): void
  /** Called when 获取验证码 fails (the request layer has shown the error already). */
  onSendError?(error: unknown): void
}

/** The phone number and the 6-digit code, with 获取验证码 and its 60-second resend countdown. */
export function SmsCodeFields({ purpose, mobile, code, onMobileChange, onCodeChange, onSendError }: Props) {
  const [left, startCountdown] = useCountdown()
  const [sending, run] = useAction()
  const [sent, setSent] = useState<Sent | null>(null)
  const sendCode = useSendSmsCode()

  async function send() {
    const number = normalizeMobile(mobile)
    if (!MOBILE_PATTERN.test(number)) return toast.error(MOBILE_MESSAGE)
    await run(async () => {
      const { resendAfterSeconds, provider } = await sendCode.mutateAsync({ mobile: number, purpose })
      startCountdown(resendAfterSeconds)
      setSent({ mobile: number, toLog: provider === 'log' })
      toast.success(provider === 'log' ? SMS_LOG_SENT : '验证码已发送')
    }, onSendError)
  }

  return (
    <>
      <Field label="手机号" htmlFor="mobile">
        <Input
          id="mobile"
          name="mobile"
          type="tel"
          inputMode="numeric"
          autoComplete="tel-national"
          maxLength={20}
          value={mobile}
          onChange={(e) => onMobileChange(e.target.value)}
          placeholder="请输入手机号"
        />
      </Field>
      <Field
        label="验证码"
        htmlFor="sms-code"
        help={
          sent &&
          (sent.toLog
            ? `${SMS_LOG_SENT}（本站未接入短信服务，不会发出短信），5 分钟内有效`
            : `验证码已发送至 ${sent.mobile.slice(0, 3)} **** ${sent.mobile.slice(-4)}，5 分钟内有效`)
        }
      >
        <div className="flex gap-2">
          <Input
            id="sms-code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={code}
            onChange={(e) => onCodeChange(e.target.value.replace(/\D/g, ''))}
            placeholder="6 位数字"
            className="min-w-0 flex-1"
          />
          <Button type="button" variant="secondary" className="w-32" onClick={send} loading={sending} disabled={left > 0}>
            {left > 0 ? `重新获取 (${left}s)` : sent ? '重新获取' : '获取验证码'}
          </Button>
        </div>
      </Field>
    </>
  )
}
