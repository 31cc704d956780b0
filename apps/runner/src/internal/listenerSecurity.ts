/**
 * What the runner's own servers (the runs page, `x-runner mcp` over HTTP) check the same way:
 * which addresses are loopback (no token needed there, but the `Host` must be a loopback name,
 * against DNS rebinding, and a proxy's headers mean the request came from elsewhere), and the
 * operator's token: read from a file or the environment, long enough, compared in constant time.
 *
 * @internal
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { createHmac, timingSafeEqual } from "node:crypto"
import { isIP } from "node:net"
import { InvalidArguments } from "../Errors.js"

/** Whether an address to listen on is this machine's only (127.0.0.0/8, ::1, localhost). */
export const isLoopbackAddress = (address: string): boolean => {
  const bare = address.replace(/^\[(.*)\]$/, "$1").toLowerCase()
  if (bare === "localhost" || bare.endsWith(".localhost")) return true
  if (isIP(bare) === 4) return bare.startsWith("127.")
  if (isIP(bare) === 6) return bare === "::1" || /^::ffff:127\./.test(bare)
  return false
}

/** Headers a proxy or tunnel adds: on loopback without a token, their presence means the request is reached from elsewhere. */
const proxyHeaders = ["forwarded", "x-forwarded-for", "x-forwarded-host", "x-real-ip", "via"] as const

/** The proxy headers a request carries (none when it came straight to this machine's loopback). */
export const proxiedBy = (headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>): ReadonlyArray<string> =>
  proxyHeaders.filter((name) => headers[name] !== undefined)

/** Whether a request's `Host` header (name, optional port) names this machine: a name a rebinding DNS points here is not one. */
export const isLoopbackHostHeader = (host: string | undefined): boolean => {
  if (host === undefined) return false
  const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.replace(/:\d*$/, "")
  return isLoopbackAddress(name)
}

/** The token of an `Authorization: Bearer <token>` header (the scheme's name in any case, as HTTP has it); none without one. */
export const bearerOf = (authorization: string | undefined): string | undefined =>
  /^Bearer +(\S+)\s*$/i.exec(authorization ?? "")?.[1]

const digest = (text: string) => createHmac("sha256", "x-runner: compare").update(text).digest()

/** Whether a given secret equals the expected one, in time that does not depend on where they differ. */
export const sameSecret = (given: string, expected: string): boolean => timingSafeEqual(digest(given), digest(expected))

/** A shorter token is refused: the server may be reachable from anywhere. */
export const tokenMinLength = 16

/**
 * The operator's token: the file's (its first line) or else the environment variable's; none
 * when neither is set. A token too short to keep a server on a public address safe is refused.
 */
export const readToken = (options: {
  readonly file: string | undefined
  /** The option that names the file, e.g. `--ui-token-file`. */
  readonly option: string
  readonly variable: string
  /** Whose token it is, for the message: e.g. "the runs page's token". */
  readonly whose: string
}): Effect.Effect<Redacted.Redacted<string> | undefined, InvalidArguments, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const { file, option, variable } = options
    const [given, from] = file === undefined
      ? [process.env[variable], variable]
      : [
        (yield* Effect.mapError(fs.readFileString(file), () => new InvalidArguments({ message: `${option} ${file}: cannot be read` })))
          .split(/\r?\n/, 1)[0],
        `${option} ${file}`
      ]
    if (given === undefined || (file === undefined && given === "")) return undefined
    const token = given.trim()
    if (token.length < tokenMinLength) {
      return yield* new InvalidArguments({ message: `${from}: ${options.whose} is at least ${tokenMinLength} characters (e.g. openssl rand -hex 24)` })
    }
    // A bearer token is one word (`bearerOf`): one with a space inside could never be presented.
    if (/\s/.test(token)) {
      return yield* new InvalidArguments({ message: `${from}: ${options.whose} has no spaces inside it (e.g. openssl rand -hex 24)` })
    }
    return Redacted.make(token)
  })
