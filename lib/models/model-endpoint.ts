import { badRequest } from '@/lib/http/app-error'
import { allowedAddresses, MetadataAddressError } from '@/lib/net/metadata-address'

export const METADATA_ENDPOINT = '接口地址不能指向链路本地或云服务器元数据地址（如 169.254.169.254、100.100.100.200、fd00:ec2::254）'
const LOOKUP_LIMIT_MS = 5_000

/**
 * A model's endpoint may be on the LAN or loopback, never a link-local or cloud metadata
 * address (every connection checks again: the name may resolve differently later). A name
 * that does not resolve here, or not in time, is saved: the workers may see other DNS.
 */
export async function assertEndpointAllowed(endpoint: string): Promise<void> {
  if (!URL.canParse(endpoint)) return // the schema has refused it already
  let timer: NodeJS.Timeout | undefined
  const slow = new Promise<void>((resolve) => (timer = setTimeout(resolve, LOOKUP_LIMIT_MS)))
  try {
    await Promise.race([allowedAddresses(new URL(endpoint).hostname), slow])
  } catch (error) {
    if (error instanceof MetadataAddressError) throw badRequest(METADATA_ENDPOINT)
  } finally {
    clearTimeout(timer)
  }
}
