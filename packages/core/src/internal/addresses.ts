/**
 * What kind of network an IP address belongs to, for the file policy: every range that is not
 * the public internet (loopback, private, link-local, unique-local, multicast, unspecified and
 * the reserved ones), IPv4 and IPv6. The IPv4 ranges are also matched where an IPv6 address
 * carries an IPv4 one (mapped `::ffff:a.b.c.d`, compatible `::a.b.c.d`, NAT64 `64:ff9b::/96`,
 * 6to4 `2002::/16`), so `[::ffff:127.0.0.1]` is loopback like `127.0.0.1`. Addresses are
 * matched by node:net's `BlockList`, which parses them itself.
 */
import { BlockList, isIP } from "node:net"

/** @internal The kinds of address the policy refuses. */
export type Kind = "unspecified" | "loopback" | "private" | "link-local" | "unique-local" | "multicast" | "reserved"

const ipv4: ReadonlyArray<readonly [Kind, string, number]> = [
  ["unspecified", "0.0.0.0", 8],
  ["loopback", "127.0.0.0", 8],
  ["private", "10.0.0.0", 8],
  ["private", "172.16.0.0", 12],
  ["private", "192.168.0.0", 16],
  ["private", "100.64.0.0", 10], // shared address space (carrier-grade NAT)
  ["link-local", "169.254.0.0", 16],
  ["multicast", "224.0.0.0", 4],
  ["reserved", "240.0.0.0", 4], // the broadcast address included
  ["reserved", "192.0.0.0", 24],
  ["reserved", "192.0.2.0", 24],
  ["reserved", "198.18.0.0", 15],
  ["reserved", "198.51.100.0", 24],
  ["reserved", "203.0.113.0", 24]
]

const ipv6: ReadonlyArray<readonly [Kind, string, number]> = [
  ["unspecified", "::", 128],
  ["loopback", "::1", 128],
  ["unique-local", "fc00::", 7],
  ["link-local", "fe80::", 10],
  ["private", "fec0::", 10], // the deprecated site-local range
  ["private", "64:ff9b:1::", 48], // local-use NAT64
  ["multicast", "ff00::", 8],
  ["reserved", "100::", 64],
  ["reserved", "2001:db8::", 32],
  ["reserved", "2001::", 32] // Teredo: the IPv4 address it hides is obfuscated
]

const hex = (octets: ReadonlyArray<number>) => ((octets[0]! << 8) | octets[1]!).toString(16) + ":" + ((octets[2]! << 8) | octets[3]!).toString(16)

const listsOf = (rules: ReadonlyArray<readonly [Kind, string, number]>, add: (list: BlockList, network: string, prefix: number) => void) => {
  const byKind = new Map<Kind, BlockList>()
  for (const [kind, network, prefix] of rules) {
    let list = byKind.get(kind)
    if (list === undefined) byKind.set(kind, list = new BlockList())
    add(list, network, prefix)
  }
  return [...byKind]
}

// IPv6's own ranges first: `::1` is loopback, not a compatible form of 0.0.0.1.
const lists: ReadonlyArray<readonly [Kind, BlockList]> = [
  ...listsOf(ipv6, (list, network, prefix) => list.addSubnet(network, prefix, "ipv6")),
  ...listsOf(ipv4, (list, network, prefix) => {
    list.addSubnet(network, prefix, "ipv4")
    // The same range inside the IPv6 forms that carry an IPv4 address.
    list.addSubnet(`::ffff:${network}`, 96 + prefix, "ipv6")
    list.addSubnet(`::${network}`, 96 + prefix, "ipv6")
    list.addSubnet(`64:ff9b::${network}`, 96 + prefix, "ipv6")
    list.addSubnet(`2002:${hex(network.split(".").map(Number))}::`, 16 + prefix, "ipv6")
  })
]

/** @internal The kind of a non-public address, or undefined for a public one (or not an IP address). */
export const kindOf = (address: string): Kind | undefined => {
  const bare = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address
  const family = isIP(bare)
  if (family === 0) return undefined
  const type = family === 4 ? "ipv4" : "ipv6"
  for (const [kind, list] of lists) if (list.check(bare, type)) return kind
  return undefined
}

/** @internal "a loopback address", "an unspecified address". */
export const describeKind = (kind: Kind): string => `${kind === "unspecified" ? "an" : "a"} ${kind} address`
