// GET /favicon.ico: browsers ask for it whatever the page says; send them to the site's logo.
import { getPublicConfig } from '@/lib/site-config/get-public-config'

export const dynamic = 'force-dynamic'

export async function GET(req: Request) {
  const { logo } = await getPublicConfig()
  return Response.redirect(new URL(logo || '/imgs/logo.svg', req.url), 302)
}
