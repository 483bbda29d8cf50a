import { notFound } from '@/lib/http/app-error'
import { SITE_NAME_PLACEHOLDER } from './legal-defaults'
import { getAllConfigValues } from './store'

/** The documents a user agrees to at sign-up, by the address of their page. */
export const LEGAL_DOCUMENTS = {
  user_agreement: { setting: 'USER_AGREEMENT', title: '用户协议' },
  privacy_policy: { setting: 'PRIVACY_POLICY', title: '隐私政策' },
} as const
export type LegalDocumentKind = keyof typeof LEGAL_DOCUMENTS

export type LegalDocument = { title: string; siteName: string; paragraphs: string[] }

export function isLegalDocumentKind(kind: string): kind is LegalDocumentKind {
  return Object.hasOwn(LEGAL_DOCUMENTS, kind)
}

/**
 * A document as the operator wrote it (site config), the site's name put in, in
 * paragraphs (blank lines between them). Plain text: the page shows it as text, never
 * as HTML.
 */
export async function getLegalDocument(kind: string): Promise<LegalDocument> {
  if (!isLegalDocumentKind(kind)) throw notFound('没有这份文档')
  const { setting, title } = LEGAL_DOCUMENTS[kind]
  const values = await getAllConfigValues()
  const siteName = String(values.get('name') ?? '')
  const text = String(values.get(setting) ?? '').replaceAll(SITE_NAME_PLACEHOLDER, siteName)
  const paragraphs = text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
  return { title, siteName, paragraphs }
}
