'use client'

import Link from 'next/link'
import { useRedirectParam } from './use-redirect-param'

/** Back to the chooser, keeping where to go afterwards. */
export function OtherSignInLink() {
  const { carry } = useRedirectParam()
  return (
    <div className="mt-6 text-center text-sm">
      <Link href={carry ? `/login?${carry}` : '/login'} className="text-zinc-400 hover:text-white">
        其他登录方式
      </Link>
    </div>
  )
}
