// PATCH /api/admin/products/{id} (ADMIN) {any product field} → the product. DELETE (ADMIN) → {deleted} (an ordered product is only disabled).
import { route } from '@/lib/http/route'
import { ZSerialIdParamsSchema } from '@/lib/http/params'
import { deleteProduct, updateProduct } from '@/lib/products/products'
import { ZProductPatchSchema } from '@/lib/products/schemas'

const ZParams = ZSerialIdParamsSchema

export const PATCH = route({ access: 'admin', params: ZParams, body: ZProductPatchSchema }, ({ user, ip, params, body }) =>
  updateProduct(user, ip, params.id, body),
)
export const DELETE = route({ access: 'admin', params: ZParams }, ({ user, ip, params }) => deleteProduct(user, ip, params.id))
