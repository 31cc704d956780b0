/**
 * The runs page's safety rules, each a small pure check: which addresses are loopback (the page
 * needs no token there, but its `Host` must be a loopback name, against DNS rebinding) and the
 * operator's token compared in constant time (`internal/listenerSecurity`, shared with `x-runner
 * mcp`), the login cookie (a week's issued-at and an HMAC of
 * it and the token, never the token), the proxy headers that refuse a loopback page without a
 * token, the CSRF value every POST carries, and the headers every answer has.
 *
 * @internal
 */
import * as Redacted from "effect/Redacted"
import { createHmac, randomBytes } from "node:crypto"
import { sameSecret } from "../../internal/listenerSecurity.js"

/** Every answer's: nothing but the page's own script and styles, no frames, no foreign forms. */
export const contentSecurityPolicy =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

/** The headers every answer under /runs has (404s and errors too). */
export const safetyHeaders: Readonly<Record<string, string>> = {
  "content-security-policy": contentSecurityPolicy,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin"
}

/** The login cookie's name. */
export const cookieName = "x-runner-runs"

export { bearerOf, isLoopbackAddress, isLoopbackHostHeader, proxiedBy, sameSecret } from "../../internal/listenerSecurity.js"

/** How long a sign-in lasts: the cookie's Max-Age, and how old an issued-at it takes. */
export const sessionMillis = 7 * 24 * 3_600_000

const sessionMac = (token: Redacted.Redacted<string>, issuedAt: number) =>
  createHmac("sha256", Redacted.value(token)).update(`x-runner runs page: session ${issuedAt}`).digest("base64url")

/**
 * The login cookie's value: `<issued-at>.<HMAC of the token and issued-at>` (the token itself is
 * never stored in the browser; a stolen cookie ends with its week).
 */
export const cookieValue = (token: Redacted.Redacted<string>, issuedAt: number): string => `${issuedAt}.${sessionMac(token, issuedAt)}`

/** Whether a cookie's value is one `cookieValue` made with this token less than `sessionMillis` before `now`. */
export const validCookie = (value: string, token: Redacted.Redacted<string>, now: number): boolean => {
  const match = /^(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(value)
  if (match === null) return false
  const issuedAt = Number(match[1])
  // A minute's slack for an issued-at ahead: runners behind one load balancer share the token, not a clock.
  if (now - issuedAt >= sessionMillis || issuedAt - now > 60_000) return false
  return sameSecret(match[2]!, sessionMac(token, issuedAt))
}

/**
 * The CSRF value the page's HTML carries and every POST sends back: derived from the token
 * (the same on every runner that shares it, behind one load balancer), else random per process.
 */
export const csrfValue = (token: Redacted.Redacted<string> | undefined): string =>
  token === undefined
    ? randomBytes(32).toString("base64url")
    : createHmac("sha256", Redacted.value(token)).update("x-runner runs page: csrf").digest("base64url")

/** The cookie's value in a `Cookie` header, if there. */
export const cookieIn = (header: string | undefined): string | undefined => {
  for (const part of (header ?? "").split(";")) {
    const at = part.indexOf("=")
    if (at > 0 && part.slice(0, at).trim() === cookieName) return part.slice(at + 1).trim()
  }
  return undefined
}

/**
 * Why a POST is not the page's own (none when it is): the CSRF header matches, and the
 * browser's `Origin` (when sent) is this host's, and `Sec-Fetch-Site` (when sent) is not cross-site.
 */
export const crossSiteRefusal = (headers: Readonly<Record<string, string | undefined>>, csrf: string | undefined): string | undefined => {
  if (csrf !== undefined) {
    const given = headers["x-xrunner-csrf"]
    if (given === undefined || !sameSecret(given, csrf)) return "the X-XRunner-CSRF header is missing or wrong: actions are sent by the runs page itself"
  }
  const site = headers["sec-fetch-site"]
  if (site !== undefined && site.toLowerCase() === "cross-site") return "a cross-site request (Sec-Fetch-Site) is refused"
  const origin = headers["origin"]
  // A form's POST from a page answered with `Referrer-Policy: no-referrer` (all of ours) carries
  // `Origin: null`; the browser's own `Sec-Fetch-Site` (no script can set it) says it is ours.
  const ownForm = origin === "null" && site !== undefined && site.toLowerCase() === "same-origin"
  if (origin !== undefined && !ownForm) {
    let host: string | undefined
    try {
      host = new URL(origin).host
    } catch {
      host = undefined
    }
    // Behind a reverse proxy that rewrites Host, the host the browser asked for is X-Forwarded-Host
    // (a header no cross-site page can set without a preflight this server never answers).
    const own = [headers["host"], ...(headers["x-forwarded-host"] ?? "").split(",")].map((name) => (name ?? "").trim().toLowerCase())
    if (host === undefined || !own.includes(host.toLowerCase())) return "a request from another origin is refused"
  }
  return undefined
}
