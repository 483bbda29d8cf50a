import Link from 'next/link'
import { LEGAL_LINKS } from '@/lib/navigation'

/** Shown when the form's answer is missing the tick. */
export const TERMS_REQUIRED = '请先阅读并勾选同意《用户协议》和《隐私政策》'

const link = 'text-brand-300 hover:text-brand-200'

/**
 * 我已阅读并同意《用户协议》和《隐私政策》: a sign-up needs the tick (the documents open
 * in a new tab, so the form keeps what was typed).
 */
export function TermsConsent({ checked, onChange }: { checked: boolean; onChange: (next: boolean) => void }) {
  return (
    <label className="flex cursor-pointer items-start gap-2 text-xs leading-5 text-zinc-400">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} className="mt-0.5 size-4 shrink-0 accent-brand-500" />
      <span>
        我已阅读并同意
        <Link href={LEGAL_LINKS.userAgreement.href} target="_blank" className={link}>
          《{LEGAL_LINKS.userAgreement.label}》
        </Link>
        和
        <Link href={LEGAL_LINKS.privacyPolicy.href} target="_blank" className={link}>
          《{LEGAL_LINKS.privacyPolicy.label}》
        </Link>
      </span>
    </label>
  )
}

/**
 * Where signing in may create an account without a form to tick (WeChat): the notice
 * stands before the button that starts it, and the account records the agreement.
 */
export function TermsNotice({ action = '登录' }: { action?: string }) {
  return (
    <p data-testid="terms-notice" className="text-center text-xs leading-5 text-zinc-500">
      {action}即表示你已阅读并同意
      <Link href={LEGAL_LINKS.userAgreement.href} target="_blank" className={link}>
        《{LEGAL_LINKS.userAgreement.label}》
      </Link>
      和
      <Link href={LEGAL_LINKS.privacyPolicy.href} target="_blank" className={link}>
        《{LEGAL_LINKS.privacyPolicy.label}》
      </Link>
      ，首次登录将自动创建账号
    </p>
  )
}
