// GET /api/site-config/legal/{user_agreement|privacy_policy} → data: {title, siteName, paragraphs}: the texts
// a user agrees to at sign-up, as the operator wrote them (plain text in paragraphs).
import { z } from '@/lib/zod'
import { route } from '@/lib/http/route'
import { getLegalDocument } from '@/lib/site-config/legal-documents'

const ZParams = z.object({ kind: z.string().min(1).max(32) })

export const GET = route({ access: 'public', params: ZParams }, ({ params }) => getLegalDocument(params.kind))
