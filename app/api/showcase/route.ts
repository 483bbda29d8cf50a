// GET /api/showcase (public) → the curated collections in order, each with its works.
import { route } from '@/lib/http/route'
import { listShowcases } from '@/lib/wall/showcases'

export const GET = route({ access: 'public' }, ({ user }) => listShowcases(user?.id ?? null))
