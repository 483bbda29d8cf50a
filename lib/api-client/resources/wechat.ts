'use client'

import { useMutation, useQuery } from '@tanstack/react-query'
import type { OAuthPurpose } from '@/lib/auth/wechat/oauth-state'
import type { WechatOutcome } from '@/lib/auth/wechat/complete-authorization'
import type { NewTicket, PolledStatus } from '@/lib/auth/wechat/login-ticket'
import { TICKET_POLL_KEY_HEADER } from '@/lib/auth/wechat/ticket-poll'
import type { Json } from '../hooks'
import { api, isRefusal } from '../request'

export const wechatUrls = {
  options: '/api/auth/wechat/options',
  authorize: '/api/auth/wechat/authorize',
  callback: '/api/auth/wechat/callback',
  tickets: '/api/auth/wechat/ticket',
  ticket: (id: string) => `/api/auth/wechat/ticket/${encodeURIComponent(id)}`,
  scan: (id: string) => `/api/auth/wechat/ticket/${encodeURIComponent(id)}/scan`,
  confirm: (id: string) => `/api/auth/wechat/ticket/${encodeURIComponent(id)}/confirm`,
} as const

export const wechatKeys = {
  all: ['wechat'] as const,
  options: () => [...wechatKeys.all, 'options'] as const,
  ticket: (id: string) => [...wechatKeys.all, 'ticket', id] as const,
}

export type WechatOptions = { available: boolean; message: string | null; openPlatform: boolean }
export type WechatOutcomeJson = Json<WechatOutcome>
export type TicketIdentifiedAnswer = Extract<WechatOutcomeJson, { kind: 'ticket-identified' }>
export type LoginTicket = Omit<Json<NewTicket>, 'expiresAt'>
export type TicketPoll = { status: PolledStatus; token?: string }

/** The server link that starts a WeChat authorization (it 302s to WeChat with a fresh state). */
export function wechatAuthorizeLink(
  purpose: Exclude<OAuthPurpose, 'bind'>,
  options: { returnPath?: string; ticket?: string; from?: string; invite?: string } = {},
): string {
  const query = new URLSearchParams({ purpose })
  if (options.returnPath) query.set('return', options.returnPath)
  if (options.ticket) query.set('ticket', options.ticket)
  if (options.from) query.set('from', options.from)
  if (options.invite) query.set('invite', options.invite)
  return `${wechatUrls.authorize}?${query}`
}

/** Whether WeChat sign-in is set up here, and whether the Open Platform QR login is offered. */
export function useWechatOptions() {
  return useQuery({ queryKey: wechatKeys.options(), queryFn: () => api.get<WechatOptions>(wechatUrls.options), placeholderData: undefined })
}

/** Starts an authorization for the signed-in user (binding), at the endpoint the start-up rule names; answers WeChat's URL. */
export function useStartWechatAuthorization() {
  return useMutation({ mutationFn: ({ endpoint, body }: { endpoint: string; body: unknown }) => api.post<{ url: string }>(endpoint, body, { silent: true }) })
}

/** Exchanges WeChat's code (once: a code is single-use). Silent: the page names the failure. */
export function useWechatCallback() {
  return useMutation({ mutationFn: (body: { code: string; state: string }) => api.post<WechatOutcomeJson>(wechatUrls.callback, body, { silent: true }) })
}

/** A new desktop QR login ticket (with the sign-in link's invite code, passed on to the phone). */
export function useCreateLoginTicket(invite?: string) {
  const url = invite ? `${wechatUrls.tickets}?${new URLSearchParams({ invite })}` : wechatUrls.tickets
  return useMutation({ mutationFn: () => api.post<LoginTicket>(url, {}, { silent: true }) })
}

/** The desktop's poll of its ticket (with the poll key only its creation answered), every `intervalMs` while `enabled`. */
export function useLoginTicketPoll(ticket: Pick<LoginTicket, 'id' | 'pollKey'> | null, enabled: boolean, intervalMs: number) {
  return useQuery({
    queryKey: wechatKeys.ticket(ticket?.id ?? ''),
    queryFn: () => api.get<TicketPoll>(wechatUrls.ticket(ticket!.id), undefined, { silent: true, headers: { [TICKET_POLL_KEY_HEADER]: ticket!.pollKey } }),
    enabled: Boolean(ticket) && enabled,
    // A ticket that gave its token, expired or was used up answers the same from now on, and
    // so does a refusal (a 4xx); a lost poll or a server error is asked again.
    refetchInterval: (q) =>
      q.state.data?.token || q.state.data?.status === 'EXPIRED' || q.state.data?.status === 'CONSUMED' || isRefusal(q.state.error) ? false : intervalMs,
    placeholderData: undefined,
  })
}

/** The phone says it scanned the ticket (before WeChat's authorization). */
export function useScanTicket() {
  return useMutation({ mutationFn: (id: string) => api.post(wechatUrls.scan(id), {}, { silent: true }) })
}

/** The phone confirms the desktop login with this browser's one-time key. */
export function useConfirmTicket() {
  return useMutation({ mutationFn: ({ id, key }: { id: string; key: string }) => api.post(wechatUrls.confirm(id), { key }, { silent: true }) })
}
