/**
 * The file policy at the connection: a request made under `FilePolicy.guardedConnection` (what
 * `client.external` sets when private networks are refused) connects only where the policy
 * allows, checked on the address connected to, whatever core checked before; and redirects
 * are never followed. Loopback servers count what reaches them.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Auth, FilePolicy, Files, ProviderClient, RateLimiter } from "@x/core"
import { Loopback } from "@x/core/testing"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Agent } from "undici"
import { UndiciHttpClient } from "../src/index.js"

let reached = 0
const target = createServer((_, res) => {
  reached++
  res.writeHead(200, { "content-type": "text/plain" }).end("internal\n")
})
const origin = await Loopback.listen(target)
const port = Number(new URL(origin).port)
// An allowed origin that redirects to the one that is not.
const redirecting = createServer((_, res) => res.writeHead(302, { location: `${origin}/secret` }).end())
const redirector = await Loopback.listen(redirecting)
const agent = new Agent()
const dir = mkdtempSync(join(tmpdir(), "undici-file-policy-"))
afterAll(async () => {
  await Promise.all([Loopback.close(target), Loopback.close(redirecting), agent.close()])
  rmSync(dir, { recursive: true, force: true })
})

const refusing: FilePolicy.Policy = { files: { directory: dir }, privateNetworks: false, allowedOrigins: [] }

/** A GET through the HttpClient itself (no check of core's first), under the policy as `client.external` sets it. */
const guardedGet = (url: string, policy: FilePolicy.Policy | undefined) =>
  Effect.scoped(Effect.flatMap(HttpClient.HttpClient, (http) =>
    Effect.locally(Effect.flatMap(http.execute(HttpClientRequest.get(url)), (response) => response.text), FilePolicy.guardedConnection, policy)
  )).pipe(Effect.provide(UndiciHttpClient.layer))

const codeOf = (error: unknown): unknown => {
  for (let current = error; typeof current === "object" && current !== null; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: unknown }).code !== undefined) return (current as { code?: unknown }).code
  }
  return undefined
}

describe("guarded connections", () => {
  it.effect("an IP address or a name resolving to loopback is refused at the connection: nothing reaches the server", () =>
    Effect.gen(function*() {
      const before = reached
      for (const url of [`${origin}/secret`, `http://2130706433:${port}/secret`, `http://localhost:${port}/secret`]) {
        const error = yield* Effect.flip(guardedGet(url, refusing))
        expect(codeOf(error), url).toBe(FilePolicy.refusedCode)
      }
      expect(reached).toBe(before)
    }))

  it.effect("the address connected to is checked itself: a name whose addresses pass the lookup still may not reach another port", () =>
    Effect.gen(function*() {
      // The lookup lets loopback addresses through (they are an allowed origin's), the port does not match it.
      const policy: FilePolicy.Policy = { ...refusing, allowedOrigins: [`http://127.0.0.1:${port + 1}`, `http://[::1]:${port + 1}`] }
      const before = reached
      const error = yield* Effect.flip(guardedGet(`http://localhost:${port}/secret`, policy))
      expect(codeOf(error)).toBe(FilePolicy.refusedCode)
      expect(String((error as { cause?: { message?: unknown } }).cause?.message)).toMatch(/is a loopback address, and private networks are not allowed/)
      expect(reached).toBe(before)
    }))

  it.effect("an allowed origin, private networks allowed, or no guard at all: the request goes through", () =>
    Effect.gen(function*() {
      const before = reached
      expect(yield* guardedGet(`${origin}/ok`, { ...refusing, allowedOrigins: [origin] })).toBe("internal\n")
      expect(yield* guardedGet(`${origin}/ok`, { ...refusing, privateNetworks: true })).toBe("internal\n")
      expect(yield* guardedGet(`${origin}/ok`, undefined)).toBe("internal\n")
      expect(reached).toBe(before + 3)
    }))
})

describe("client.external on undici", () => {
  const client = ProviderClient.makeWith(UndiciHttpClient.make(agent), RateLimiter.make(), {
    baseUrl: redirector,
    credentials: Auth.bearer(Redacted.make("t0ken")),
    retry: { maxRetries: 0 }
  })

  it.effect("a redirect from an allowed URL is not followed to an address the policy refuses", () =>
    Effect.gen(function*() {
      const before = reached
      const policy: FilePolicy.Policy = { ...refusing, allowedOrigins: [redirector] }
      const error = yield* Effect.flip(Files.downloadUrl(client, `${redirector}/file`, { to: "file.txt" }).pipe(Effect.provide(FilePolicy.layer(policy))))
      expect(error._tag).toBe("UnexpectedResponse")
      expect(error.status).toBe(302)
      expect(reached).toBe(before)
      expect(readdirSync(dir)).toEqual([])
    }))
})
