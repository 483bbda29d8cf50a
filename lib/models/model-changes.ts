import 'server-only'
import { isDeepStrictEqual } from 'node:util'
import { isAdmin } from '@/lib/auth/permissions'
import type { SessionUser } from '@/lib/auth/session'
import { badRequest, forbidden } from '@/lib/http/app-error'
import type { ModelRecord } from './admin-model-views'
import { sealModelSecret } from './model-secret'

export const SECRET_ADMIN_ONLY = '只有管理员可以设置或修改模型密钥'
/** The endpoint decides where the server connects (and 测试连接 reports back): ADMIN-only like the key. */
export const ENDPOINT_ADMIN_ONLY = '只有管理员可以设置或修改模型的接口地址'

/**
 * On a model connected to a service (an endpoint or a key), what decides which software
 * answers and where the backend reports back is ADMIN-only too: its backend and kind (a
 * paid model switched to the demo renderer would sell made-up pictures), the Midjourney
 * proxy's callback address (every task's prompt and images would go there) and ComfyUI's
 * workflows (what runs on the operator's machine).
 */
export const CONNECTION_ADMIN_ONLY = '只有管理员可以修改已接入服务的模型的后端、类型、回调地址和工作流'
const CONNECTION_OPTIONS = ['notifyBaseUrl', 'workflows']

const optionOf = (options: unknown, key: string) => (options && typeof options === 'object' ? (options as Record<string, unknown>)[key] : undefined)

const originOf = (endpoint: string) => (URL.canParse(endpoint) ? new URL(endpoint).origin : endpoint)

/**
 * Endpoints and backend keys are ADMIN-only: a MANAGER may not set, change or clear either
 * (sending the stored endpoint unchanged is fine). And a stored key never follows the
 * endpoint to another host on its own (测试连接 would hand it to whoever runs that host):
 * moving the endpoint to another origin needs the key again, or '' to drop it.
 */
export function assertChangesAllowed(
  actor: SessionUser,
  before: ModelRecord,
  { endpoint, secret, backend, type, options }: { endpoint?: string; secret?: string; backend?: string; type?: string; options?: unknown },
): void {
  if (endpoint !== undefined && endpoint !== before.endpoint && !isAdmin(actor.role)) throw forbidden(ENDPOINT_ADMIN_ONLY)
  const changesSecret = secret !== undefined && (secret !== '' || before.secretEnc !== null)
  if (changesSecret && !isAdmin(actor.role)) throw forbidden(SECRET_ADMIN_ONLY)
  const connected = before.endpoint !== '' || before.secretEnc !== null
  const changesConnection =
    (backend !== undefined && backend !== before.backend) ||
    (type !== undefined && type !== before.type) ||
    (options !== undefined && CONNECTION_OPTIONS.some((key) => !isDeepStrictEqual(optionOf(options, key), optionOf(before.options, key))))
  if (connected && changesConnection && !isAdmin(actor.role)) throw forbidden(CONNECTION_ADMIN_ONLY)
  const movesOrigin = endpoint !== undefined && originOf(endpoint) !== originOf(before.endpoint)
  if (movesOrigin && before.secretEnc && secret === undefined) throw badRequest('更换接口地址时请重新填写密钥（或清除密钥）')
}

/** The secret column for a typed secret: sealed, '' clears it, undefined leaves it alone. */
export const secretData = (secret: string | undefined) => (secret === undefined ? {} : { secretEnc: secret ? sealModelSecret(secret) : null })
