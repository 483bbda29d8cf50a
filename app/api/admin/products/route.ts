// GET /api/admin/products → data.list (all, by sort). POST (ADMIN) {type, name, description, price, points?, balance?, days?, ...} → data.id.
import { route } from '@/lib/http/route'
import { createProduct, listProductsForAdmin } from '@/lib/products/products'
import { ZProductSchema } from '@/lib/products/schemas'

export const GET = route({ access: 'console' }, () => listProductsForAdmin())
export const POST = route({ access: 'admin', body: ZProductSchema }, ({ user, ip, body }) => createProduct(user, ip, body))
