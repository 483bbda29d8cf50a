import http from 'node:http'
import https from 'node:https'
import type net from 'node:net'
import { allowedAddresses, systemResolver, type Resolver } from './metadata-address'
import { pinnedLookup } from './safe-fetch'

/**
 * http(s) agents for a library that makes its own connections (the S3 client): each
 * connection resolves the host, is refused when any address is link-local or a cloud
 * metadata address, and goes to a checked address only. An IP literal never reaches a
 * lookup, so callers check such a host with allowedAddresses before the call.
 */
export function guardedAgents(resolve: Resolver = systemResolver): { httpAgent: http.Agent; httpsAgent: https.Agent } {
  const lookup = ((hostname: string, options: Parameters<ReturnType<typeof pinnedLookup>>[1], callback: Parameters<ReturnType<typeof pinnedLookup>>[2]) => {
    allowedAddresses(hostname, resolve).then(
      (addresses) => pinnedLookup(addresses)(hostname, options, callback),
      (error: Error) => callback(error, '', 0),
    )
  }) as unknown as net.LookupFunction
  return { httpAgent: new http.Agent({ keepAlive: true, lookup }), httpsAgent: new https.Agent({ keepAlive: true, lookup }) }
}
