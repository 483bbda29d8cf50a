'use client'

import { useMutation } from '@tanstack/react-query'
import { api } from '../request'

export const smsUrls = { send: '/api/auth/sms/send', login: '/api/auth/sms/login' } as const

/** `provider: 'log'` only on a trial site, where the code goes to the server's log. */
export type SmsSent = { resendAfterSeconds: number; provider?: 'log' }

export function useSendSmsCode() {
  return useMutation({ mutationFn: (body: { mobile: string; purpose: 'login' | 'bind' }) => api.post<SmsSent>(smsUrls.send, body) })
}

/** Phone and code; the first sign-in creates the account (so it carries the terms consent). */
export function useSmsSignIn() {
  return useMutation({ mutationFn: (body: { mobile: string; code: string; agreeTerms: boolean }) => api.post<{ token: string }>(smsUrls.login, body) })
}
