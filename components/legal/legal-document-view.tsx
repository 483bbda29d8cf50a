import Link from 'next/link'
import type { LegalDocument } from '@/lib/site-config/legal-documents'
import { Card, PageTitle } from '@/components/ui/card'

/** /user_agreement and /privacy_policy: the operator's text as plain paragraphs (never HTML). */
export function LegalDocumentView({ document, other }: { document: LegalDocument; other: { href: string; title: string } }) {
  return (
    <article className="mx-auto max-w-3xl">
      <PageTitle>
        {document.siteName}
        {document.title}
      </PageTitle>
      <Card className="space-y-4 text-sm leading-7 text-zinc-300">
        {document.paragraphs.map((paragraph, i) => (
          <p key={i} className="whitespace-pre-line break-words">
            {paragraph}
          </p>
        ))}
      </Card>
      <p className="mt-4 text-sm text-zinc-500">
        另见{' '}
        <Link href={other.href} className="text-brand-300 hover:text-brand-200">
          《{other.title}》
        </Link>
      </p>
    </article>
  )
}
