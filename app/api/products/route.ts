// GET /api/products → data.list of what the site sells (enabled, by sort): { id, type, name, description, price, points?, balance?, days?, sort, ... }.
import { route } from '@/lib/http/route'
import { listProducts } from '@/lib/products/products'

export const GET = route({ access: 'public' }, () => listProducts())
