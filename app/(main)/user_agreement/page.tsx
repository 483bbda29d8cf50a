import type { Metadata } from 'next'
import { LegalDocumentView } from '@/components/legal/legal-document-view'
import { getLegalDocument } from '@/lib/site-config/legal-documents'

export const metadata: Metadata = { title: '用户协议' }

/** The 用户协议 the operator edits in the site config (USER_AGREEMENT), read on every request. */
export default async function UserAgreementPage() {
  return <LegalDocumentView document={await getLegalDocument('user_agreement')} other={{ href: '/privacy_policy', title: '隐私政策' }} />
}
