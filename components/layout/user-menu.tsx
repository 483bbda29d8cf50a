'use client'

import Link from 'next/link'
import { useEffect, useRef, useState } from 'react'
import { useProfile } from '@/lib/api-client/resources/profile'
import { canEnterAdmin } from '@/lib/auth/permissions'
import { USER_MENU } from '@/lib/navigation'
import { Button } from '@/components/ui/button'
import { useLogout } from './use-logout'

/** The avatar button with the user's pages, the console link for staff, and logout. */
export function UserMenu() {
  const { profile, isSignedIn } = useProfile()
  const logout = useLogout()
  const [open, setOpen] = useState(false)
  const box = useRef<HTMLDivElement>(null)

  useEffect(() => {
    if (!open) return
    const close = (e: MouseEvent) => !box.current?.contains(e.target as Node) && setOpen(false)
    document.addEventListener('mousedown', close)
    return () => document.removeEventListener('mousedown', close)
  }, [open])

  if (isSignedIn === undefined) return <div className="size-9" />
  if (!isSignedIn) {
    return (
      <Link href="/login">
        <Button size="sm">登录 / 注册</Button>
      </Link>
    )
  }

  return (
    <div ref={box} className="relative">
      <button
        type="button"
        aria-label={profile?.name ?? '用户菜单'}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="flex items-center gap-2 rounded-full p-0.5 pr-2 ring-1 ring-zinc-800 transition hover:ring-zinc-600"
      >
        <img src={profile?.avatar ?? '/imgs/default_avatar.png'} alt="" className="size-8 rounded-full object-cover" />
        <span className="hidden max-w-28 truncate text-sm text-zinc-200 sm:inline">{profile?.name ?? '…'}</span>
      </button>
      {open && (
        <div role="menu" className="absolute right-0 z-40 mt-2 w-52 overflow-hidden rounded-xl bg-zinc-900 py-1 shadow-2xl ring-1 ring-zinc-800">
          {profile && (
            <div className="border-b border-zinc-800 px-4 py-3 text-xs text-zinc-400">
              <div className="truncate text-sm text-white">{profile.name}</div>
              积分 {profile.points}
            </div>
          )}
          {USER_MENU.map((item) => (
            <Link
              key={item.href}
              href={item.href}
              role="menuitem"
              onClick={() => setOpen(false)}
              className="block px-4 py-2 text-sm text-zinc-200 hover:bg-zinc-800"
            >
              {item.label}
            </Link>
          ))}
          {profile && canEnterAdmin(profile.role) && (
            <Link href="/admin/user_mana" role="menuitem" onClick={() => setOpen(false)} className="block px-4 py-2 text-sm text-zinc-200 hover:bg-zinc-800">
              管理后台
            </Link>
          )}
          <button type="button" role="menuitem" onClick={logout} className="block w-full px-4 py-2 text-left text-sm text-red-400 hover:bg-zinc-800">
            退出登录
          </button>
        </div>
      )}
    </div>
  )
}
