import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { isPrivateAddress } from '../../private-networks.js'

/** A request the platform will not send; its message goes into net._http_response.error_msg. */
export class RefusedTarget extends Error {
  override name = 'RefusedTarget'
}

export interface CheckedAddress {
  address: string
  family: 4 | 6
}

/**
 * The address to connect to for a request's host, checked: every address the name resolves to must be public unless
 * the installation allows private ones (STRATUM_NET_ALLOW_PRIVATE_HOSTS). The caller connects to this very address
 * (a pinned lookup, http-request.ts), so a name that resolves differently a moment later changes nothing.
 *
 * `hostname` is a WHATWG URL's: decimal, octal and hex IPv4 forms (http://2130706433/, http://0x7f.1/) are already
 * dotted there, and IPv6 literals bracketed.
 */
export async function checkedAddress(hostname: string, allowPrivate: boolean, resolve: typeof lookup = lookup): Promise<CheckedAddress> {
  const bare = hostname.replace(/^\[|\]$/g, '')
  let addresses: Array<{ address: string; family: number }>
  if (isIP(bare)) addresses = [{ address: bare, family: isIP(bare) }]
  else {
    try {
      addresses = await resolve(bare, { all: true, verbatim: true })
    } catch {
      throw new RefusedTarget(`Could not resolve host: ${bare}`)
    }
  }
  if (addresses.length === 0) throw new RefusedTarget(`Could not resolve host: ${bare}`)
  if (!allowPrivate) {
    const refused = addresses.find((entry) => isPrivateAddress(entry.address))
    if (refused) {
      throw new RefusedTarget(
        `Refused: ${bare} resolves to ${refused.address}, a loopback or private address (the installation does not allow them: STRATUM_NET_ALLOW_PRIVATE_HOSTS)`,
      )
    }
  }
  const first = addresses[0]!
  return { address: first.address, family: first.family === 6 ? 6 : 4 }
}
