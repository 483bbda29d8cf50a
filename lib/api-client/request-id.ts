/**
 * A random (version 4) UUID naming one request that must not count twice: an admin
 * adjustment's or a task submit's Idempotency-Key. Made with
 * crypto.getRandomValues because crypto.randomUUID exists only in secure contexts, and a
 * self-hosted console may be served over plain HTTP. Runs in the browser and in Node.
 */
export function newRequestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  bytes[6] = (bytes[6]! & 0x0f) | 0x40 // version 4
  bytes[8] = (bytes[8]! & 0x3f) | 0x80 // RFC 9562 variant
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
