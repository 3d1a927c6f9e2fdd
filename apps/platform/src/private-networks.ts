import { BlockList, isIP } from 'node:net'

/**
 * The networks no project may make the platform connect to unless the installation allows it: private, link-local,
 * carrier-grade NAT, "this host" and loopback networks, and every other range that is no public unicast service
 * (IANA's special-purpose registries, RFC 6890): benchmarking, documentation, IETF protocol assignments, multicast,
 * reserved and broadcast. One list for every outbound path a tenant controls: a project's SMTP host
 * (services/auth/smtp.ts), its webhooks and net.http_* requests (services/net), and its edge functions' --deny-net
 * (services/functions/sandbox.ts, which denies loopback per port instead; Deno takes any IPv4 CIDR there, /4 and /32
 * included, measured on 2.9.6).
 */
export const PRIVATE_IPV4_NETWORKS: ReadonlyArray<readonly [network: string, prefix: number]> = [
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['169.254.0.0', 16],
  ['100.64.0.0', 10],
  ['0.0.0.0', 8],
  // IETF protocol assignments (DS-Lite's B4/AFTR, NAT64 discovery...), never a public host.
  ['192.0.0.0', 24],
  // Documentation (TEST-NET-1, -2, -3): no host of them is public, some networks route them internally.
  ['192.0.2.0', 24],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  // Benchmarking (RFC 2544): often a lab's or a cloud's internal network.
  ['198.18.0.0', 15],
  // The deprecated 6to4 relay anycast.
  ['192.88.99.0', 24],
  // Multicast, then reserved "class E" with the limited broadcast 255.255.255.255.
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
]
export const LOOPBACK_IPV4_NETWORK = ['127.0.0.0', 8] as const

const PRIVATE = new BlockList()
for (const [network, prefix] of [...PRIVATE_IPV4_NETWORKS, LOOPBACK_IPV4_NETWORK]) PRIVATE.addSubnet(network, prefix, 'ipv4')
// Loopback, unspecified, unique-local, link-local and the deprecated site-local networks.
PRIVATE.addAddress('::1', 'ipv6')
PRIVATE.addAddress('::', 'ipv6')
PRIVATE.addSubnet('fc00::', 7, 'ipv6')
PRIVATE.addSubnet('fe80::', 10, 'ipv6')
PRIVATE.addSubnet('fec0::', 10, 'ipv6')
// Multicast, the discard prefix (RFC 6666) and documentation (RFC 3849).
PRIVATE.addSubnet('ff00::', 8, 'ipv6')
PRIVATE.addSubnet('100::', 64, 'ipv6')
PRIVATE.addSubnet('2001:db8::', 32, 'ipv6')
// Teredo (RFC 4380): the packet goes through a relay to a client whose IPv4 (the last 32 bits, inverted) the address
// only claims, behind a NAT of any network; no public service needs to be reached this way, so none of it is public.
PRIVATE.addSubnet('2001::', 32, 'ipv6')

/**
 * The IPv4 address an IPv6 address carries, when it reaches that IPv4 host: mapped (::ffff:a.b.c.d), compatible
 * (::a.b.c.d), translated (::ffff:0:a.b.c.d, RFC 2765), NAT64 (64:ff9b::/96, and the local-use 64:ff9b:1::/48 of
 * RFC 8215 with the IPv4 address in its last 32 bits) and 6to4 (2002:AABB:CCDD::). Checked like the IPv4 address itself.
 */
function embeddedIpv4(address: string): string | null {
  const groups = expandIpv6(address)
  if (!groups) return null
  const v4 = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`
  const zeros = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0)
  if (zeros(0, 5) && (groups[5] === 0xffff || groups[5] === 0)) return v4(groups[6]!, groups[7]!)
  if (zeros(0, 4) && groups[4] === 0xffff && groups[5] === 0) return v4(groups[6]!, groups[7]!)
  if (groups[0] === 0x64 && groups[1] === 0xff9b && (zeros(2, 6) || groups[2] === 1)) return v4(groups[6]!, groups[7]!)
  if (groups[0] === 0x2002) return v4(groups[1]!, groups[2]!)
  return null
}

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail allowed), or null. */
function expandIpv6(address: string): number[] | null {
  let text = address.replace(/^\[|\]$/g, '').split('%')[0]!.toLowerCase()
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (dotted) {
    const parts = dotted[1]!.split('.').map(Number)
    text = `${text.slice(0, -dotted[1]!.length)}${((parts[0]! << 8) | parts[1]!).toString(16)}:${((parts[2]! << 8) | parts[3]!).toString(16)}`
  }
  const [head, tail] = text.split('::') as [string, string | undefined]
  const parse = (part: string) => (part ? part.split(':').map((group) => parseInt(group, 16)) : [])
  const first = parse(head)
  const last = tail === undefined ? [] : parse(tail)
  const missing = 8 - first.length - last.length
  if (missing < 0 || (tail === undefined && missing !== 0)) return null
  const groups = [...first, ...new Array<number>(missing).fill(0), ...last]
  return groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : null
}

/** Is this IP address (v4 or v6, as resolved) on loopback or a private network? Anything that is not an IP is. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 4) return PRIVATE.check(address, 'ipv4')
  if (family !== 6) return true
  try {
    const inner = embeddedIpv4(address)
    if (inner !== null && PRIVATE.check(inner, 'ipv4')) return true
    return PRIVATE.check(address, 'ipv6')
  } catch {
    // A form BlockList cannot read (a zone id such as fe80::1%eth0): not known to be public.
    return true
  }
}
