'use client'

import Link from 'next/link'
import { useState, type FormEvent } from 'react'
import { useBindInvite, useMyInvite, type InviteInfo } from '@/lib/api-client/resources/invites'
import { useSiteInfo } from '@/lib/api-client/resources/site-info'
import { formatCents, formatDateTime } from '@/lib/format'
import { toast } from '@/lib/ui/toast-store'
import { useAction } from '@/lib/ui/use-action'
import { RequireUser } from '@/components/app/require-user'
import { Button } from '@/components/ui/button'
import { Card, PageTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/field'
import { Loading } from '@/components/ui/spinner'
import { QrCode } from '@/components/payments/qr-code'
import { InvitePoster } from './invite-poster'

async function copy(text: string) {
  try {
    await navigator.clipboard.writeText(text)
    toast.success('邀请链接已复制')
  } catch {
    toast.error('复制失败，请长按链接手动复制')
  }
}

function Stat({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="rounded-xl bg-zinc-950/60 p-4 ring-1 ring-zinc-800">
      <div className="text-xs text-zinc-500">{label}</div>
      <div className="mt-1 text-xl font-semibold text-white tabular-nums" data-testid={testId}>
        {value}
      </div>
    </div>
  )
}

function BindForm({ info }: { info: InviteInfo }) {
  const [code, setCode] = useState('')
  const bind = useBindInvite()
  const [busy, run] = useAction()
  if (info.inviter)
    return (
      <p className="text-sm text-zinc-400" data-testid="my-inviter">
        你的邀请人：<span className="text-zinc-200">{info.inviter.name}</span>（绑定于 {formatDateTime(info.inviter.boundAt)}）
      </p>
    )
  async function submit(e: FormEvent) {
    e.preventDefault()
    if (!code.trim()) return toast.error('请输入邀请码')
    const ok = await run(() => bind.mutateAsync(code.trim()))
    if (ok) {
      toast.success('邀请码绑定成功')
      setCode('')
    }
  }
  return (
    <form onSubmit={submit} className="flex flex-wrap gap-3">
      <Input
        aria-label="邀请码"
        value={code}
        onChange={(e) => setCode(e.target.value)}
        placeholder="输入好友的邀请码（只能绑定一次）"
        autoComplete="off"
        maxLength={16}
        className="min-w-56 flex-1 font-mono uppercase"
      />
      <Button type="submit" loading={busy}>
        绑定邀请码
      </Button>
    </form>
  )
}

function InviteBody() {
  const { data: info, isLoading, isError, refetch } = useMyInvite()
  const { data: site } = useSiteInfo()
  if (isLoading) return <Loading />
  if (isError || !info)
    return (
      <Card className="text-center text-sm text-zinc-400">
        加载失败，
        <button type="button" className="text-brand-400 underline" onClick={() => refetch()}>
          重试
        </button>
      </Card>
    )
  return (
    <div className="grid gap-5 lg:grid-cols-[1fr_320px]">
      <div className="space-y-5">
        <Card>
          <div className="mb-4 flex flex-wrap items-baseline gap-3">
            <span className="text-sm text-zinc-400">我的邀请码</span>
            <span className="font-mono text-2xl font-semibold tracking-widest text-white" data-testid="invite-code">
              {info.code}
            </span>
          </div>
          <div className="flex flex-wrap gap-2">
            <Input
              readOnly
              value={info.link}
              aria-label="邀请链接"
              data-testid="invite-link"
              className="min-w-0 flex-1 font-mono text-xs"
              onFocus={(e) => e.target.select()}
            />
            <Button onClick={() => copy(info.link)}>复制链接</Button>
          </div>
          <div className="mt-5 grid grid-cols-1 gap-3 sm:grid-cols-3">
            <Stat label="已邀请人数" value={String(info.invitedCount)} testId="invited-count" />
            <Stat label="累计佣金（余额）" value={`¥${formatCents(info.earnings.balance)}`} testId="earned-balance" />
            <Stat label="累计佣金（积分）" value={String(info.earnings.points)} testId="earned-points" />
          </div>
          <p className="mt-4 text-xs leading-relaxed text-zinc-500">
            好友通过你的链接注册后，每次支付成功你都能获得佣金，佣金会直接计入你的余额或积分。佣金不可提现，只能在本站消费使用。
          </p>
          <Link href="/my/invite_charge_record" className="mt-3 inline-block text-sm text-brand-400 hover:underline">
            查看佣金记录 →
          </Link>
        </Card>
        <Card>
          <h2 className="mb-3 text-base font-medium text-white">邀请人</h2>
          <BindForm info={info} />
        </Card>
        <Card className="hidden lg:block">
          <h2 className="mb-3 text-base font-medium text-white">扫码注册</h2>
          <QrCode text={info.link} label="邀请二维码" />
        </Card>
      </div>
      <Card>
        <h2 className="mb-1 text-base font-medium text-white">邀请海报</h2>
        <p className="mb-3 text-xs text-zinc-500">在微信中长按图片保存，分享给好友或朋友圈</p>
        <InvitePoster link={info.link} code={info.code} siteName={site?.name ?? ''} />
      </Card>
    </div>
  )
}

/** /my/invite (docs/PRODUCT.md §17): code, link, QR, poster, counts, earnings, the inviter. */
export function MyInviteView() {
  return (
    <RequireUser>
      {() => (
        <div>
          <PageTitle>邀请好友</PageTitle>
          <InviteBody />
        </div>
      )}
    </RequireUser>
  )
}
