/**
 * Where files may come from and go to: one policy, in context, that every file input
 * (`FileInput.open`), every download (`Files.download`, `Files.downloadUrl`) and every request
 * to a URL outside the provider's API (`client.external`: a file given by URL, a presigned
 * upload or download URL) follows.
 *
 * - Local files: anywhere the process can reach, nowhere, or only inside one directory: a
 *   path is resolved from it, symlinks included, and refused when it ends up outside; a
 *   download's destination may not hold a `..` segment (a name taken from data is a name,
 *   never a way out of the directory).
 * - Networks: unless private networks are allowed, an external request to a loopback,
 *   private, link-local, unique-local, multicast, unspecified or reserved address (IPv4 or
 *   IPv6, in any notation the URL parser reads, IPv4-mapped IPv6 included) is refused before
 *   it is sent, its host name resolved first; an HttpClient that connects on its own
 *   (`@x/http-undici`) checks the address it actually connects to as well (`guardedConnection`),
 *   so that a name resolving differently the second time cannot get through. `allowedOrigins`
 *   are let through all the same (the runner's sandbox: its simulators).
 *
 * Without a policy in context (a typed client, a program of one's own), everything is
 * allowed, as before this module existed: `unrestricted`. The runner always sets one.
 *
 * @since 0.3.0
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Layer from "effect/Layer"
import { lookup as dnsLookup, type LookupAddress } from "node:dns"
import { isIP, type LookupFunction } from "node:net"
import * as Addresses from "./internal/addresses.js"

/**
 * A policy: where local files may be (`"anywhere"`, `"nowhere"`, or inside `{ directory }`),
 * whether external requests may reach private networks, and the origins (`http://host:port`,
 * the host an IP address) they may reach all the same.
 *
 * @since 0.3.0
 * @category models
 */
export interface Policy {
  readonly files: "anywhere" | "nowhere" | { readonly directory: string }
  readonly privateNetworks: boolean
  readonly allowedOrigins: ReadonlyArray<string>
}

/**
 * Everything allowed: any local path, any address. The default.
 *
 * @since 0.3.0
 * @category constants
 */
export const unrestricted: Policy = { files: "anywhere", privateNetworks: true, allowedOrigins: [] }

/**
 * The policy in context; `unrestricted` when none is provided.
 *
 * @since 0.3.0
 * @category services
 */
export class FilePolicy extends Context.Reference<FilePolicy>()("@x/core/FilePolicy", {
  defaultValue: (): Policy => unrestricted
}) {}

/**
 * Provides a policy.
 *
 * @since 0.3.0
 * @category layers
 */
export const layer = (policy: Policy): Layer.Layer<FilePolicy> => Layer.succeed(FilePolicy, policy)

/**
 * Set while `client.external` executes a request under a policy that refuses private
 * networks: an HttpClient that makes its own connections reads it and connects only where
 * `addressRefusal` allows (with `lookup` for names), failing with `addressRefused` otherwise.
 *
 * @since 0.3.0
 * @category fiber refs
 */
export const guardedConnection: FiberRef.FiberRef<Policy | undefined> = FiberRef.unsafeMake<Policy | undefined>(undefined)

/**
 * The `code` of a connection refused by the policy (`addressRefused`): the provider client
 * reports it as an `InvalidInput`, never retried.
 *
 * @since 0.3.0
 * @category constants
 */
export const refusedCode = "ERR_X_ADDRESS_REFUSED"

/**
 * The error an HttpClient fails a connection with when the policy refuses its address.
 *
 * @since 0.3.0
 * @category constructors
 */
export const addressRefused = (message: string): Error & { readonly code: string } =>
  Object.assign(new Error(message), { code: refusedCode })

const defaultPort = (protocol: string) => protocol === "https:" ? 443 : 80

const bare = (host: string) => host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host

// Each policy's allowed origins, as "address|port" keys (and addresses alone, for a lookup).
const allowedCache = new WeakMap<Policy, { readonly origins: ReadonlySet<string>; readonly addresses: ReadonlySet<string> }>()
const allowedOf = (policy: Policy) => {
  let allowed = allowedCache.get(policy)
  if (allowed === undefined) {
    const origins = new Set<string>()
    const addresses = new Set<string>()
    for (const origin of policy.allowedOrigins) {
      try {
        const url = new URL(origin)
        const host = bare(url.hostname)
        origins.add(`${host}|${url.port === "" ? defaultPort(url.protocol) : Number(url.port)}`)
        addresses.add(host)
      } catch {
        // Not a URL: it allows nothing.
      }
    }
    allowedCache.set(policy, allowed = { origins, addresses })
  }
  return allowed
}

const notAllowed = ", and private networks are not allowed"

const refusedKind = (policy: Policy, host: string, port: number): Addresses.Kind | undefined =>
  policy.privateNetworks || allowedOf(policy).origins.has(`${host}|${port}`) ? undefined : Addresses.kindOf(host)

/**
 * Why the policy refuses a connection to this address and port, as a sentence; undefined when
 * it allows it (private networks allowed, a public address, an allowed origin's).
 *
 * @since 0.3.0
 * @category guards
 */
export const addressRefusal = (policy: Policy, address: string, port: number): string | undefined => {
  const host = bare(address)
  const kind = refusedKind(policy, host, port)
  return kind === undefined ? undefined : `${host} is ${Addresses.describeKind(kind)}${notAllowed}`
}

/**
 * Whether the policy refuses this address for every port (a lookup's answer, before the port
 * is known): a non-public address that is no allowed origin's.
 *
 * @since 0.3.0
 * @category guards
 */
export const refusesAddress = (policy: Policy, address: string): boolean =>
  !policy.privateNetworks && Addresses.kindOf(address) !== undefined && !allowedOf(policy).addresses.has(bare(address))

/**
 * A `lookup` for `net.connect`/`tls.connect` (an undici connector's option): node:dns's, failing
 * with `addressRefused` when a name resolves to an address the policy refuses.
 *
 * @since 0.3.0
 * @category guards
 */
export const lookup = (policy: Policy): LookupFunction => (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: Array<LookupAddress>) => {
    if (error !== null) return callback(error, "", 0)
    const refused = addresses.find((answer) => refusesAddress(policy, answer.address))
    if (refused !== undefined) {
      const kind = Addresses.kindOf(refused.address)!
      return callback(addressRefused(`${hostname} resolves to ${refused.address}, ${Addresses.describeKind(kind)}${notAllowed}`), "", 0)
    }
    if (options.all === true) return (callback as unknown as (e: null, a: Array<LookupAddress>) => void)(null, addresses)
    const first = addresses[0]!
    callback(null, first.address, first.family)
  })
}

/**
 * Why the policy refuses a request to this URL, its host name resolved (every address it has
 * must be allowed); undefined when it allows it. A URL that does not parse or a name that does
 * not resolve is left to the request, which fails on its own.
 *
 * @since 0.3.0
 * @category guards
 */
export const urlRefusal = (policy: Policy, url: string): Effect.Effect<string | undefined> => {
  if (policy.privateNetworks) return Effect.succeed(undefined)
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return Effect.succeed(undefined)
  }
  const host = bare(parsed.hostname)
  const port = parsed.port === "" ? defaultPort(parsed.protocol) : Number(parsed.port)
  if (isIP(host) !== 0) return Effect.succeed(addressRefusal(policy, host, port))
  if (allowedOf(policy).origins.has(`${host}|${port}`)) return Effect.succeed(undefined)
  return Effect.async<string | undefined>((resume) =>
    dnsLookup(host, { all: true }, (error, addresses) => {
      if (error !== null) return resume(Effect.succeed(undefined))
      for (const { address } of addresses) {
        const kind = refusedKind(policy, address, port)
        if (kind !== undefined) return resume(Effect.succeed(`${host} resolves to ${address}, ${Addresses.describeKind(kind)}${notAllowed}`))
      }
      resume(Effect.succeed(undefined))
    }))
}
