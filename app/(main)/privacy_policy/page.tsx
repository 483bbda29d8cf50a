import type { Metadata } from 'next'
import { LegalDocumentView } from '@/components/legal/legal-document-view'
import { getLegalDocument } from '@/lib/site-config/legal-documents'

export const metadata: Metadata = { title: '隐私政策' }

/** The 隐私政策 the operator edits in the site config (PRIVACY_POLICY), read on every request. */
export default async function PrivacyPolicyPage() {
  return <LegalDocumentView document={await getLegalDocument('privacy_policy')} other={{ href: '/user_agreement', title: '用户协议' }} />
}
