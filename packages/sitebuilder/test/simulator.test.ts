import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Connection, OAuth2 } from "@x/core"
import { UndiciHttpClient } from "@x/http-undici"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Redacted from "effect/Redacted"
import { sitebuilder } from "../src/index.js"
import * as Simulator from "../src/testing/simulator.js"
import { connectedTo, executor, step } from "./support.js"

let sim: Simulator.Simulator
let app: Record<string, string>
const redirectUri = "http://127.0.0.1:3000/callback"

beforeAll(async () => {
  sim = await Simulator.start({ rateLimit: false })
  app = {
    clientId: sim.clientId,
    clientSecret: sim.clientSecret,
    authorizeUrl: sim.authorizeUrl,
    tokenUrl: sim.tokenUrl,
    baseUrl: sim.baseUrl
  }
})
afterAll(() => sim.close())

const provide = <A, E>(effect: Effect.Effect<A, E, import("@effect/platform/HttpClient").HttpClient>) =>
  Effect.provide(effect, UndiciHttpClient.layer)
const run = (action: string, parameters: Record<string, unknown>, values: object) =>
  executor.run(step(action, parameters)).pipe(Effect.provide(connectedTo(values, UndiciHttpClient.layer)))

/** The browser's part: follow the authorize URL to its redirect, and read the callback's query. */
const consent = (url: string) =>
  Effect.promise(async () => {
    const response = await fetch(url, { redirect: "manual" })
    return new URL(response.headers.get("location")!).searchParams
  })

const connect = Effect.gen(function*() {
  const state = OAuth2.makeState()
  const url = yield* Connection.authorizationUrl(sitebuilder.connection, app, { redirectUri, state })
  const callback = yield* consent(url)
  yield* OAuth2.checkState(state, callback.get("state") ?? undefined)
  const token = yield* provide(
    Connection.exchangeCode(sitebuilder.connection, app, { code: callback.get("code")!, redirectUri })
  )
  return { ...app, accessToken: Redacted.value(token.accessToken) }
})

const store = () => [...sim.sites.values()].find((s) => s.ecommerce)!
const products = () => [...sim.collections.values()].find((c) => c.displayName === "Products")!

describe("sitebuilder against the simulator", () => {
  it.live("OAuth end to end: authorize (every scope the actions and triggers declare) → callback with state check → token → an action", () =>
    Effect.gen(function*() {
      const url = new URL(yield* Connection.authorizationUrl(sitebuilder.connection, app, { redirectUri, state: "s" }))
      const declared = [...Object.values<{ readonly scopes: ReadonlyArray<string> }>(sitebuilder.actions as any), ...Object.values<{ readonly scopes?: ReadonlyArray<string> }>(sitebuilder.triggers as any)]
        .flatMap((definition) => definition.scopes ?? [])
      expect(url.searchParams.get("scope")).toBe([...new Set(declared)].sort().join(" "))
      expect(url.searchParams.get("scope")!.split(" ")).toEqual(expect.arrayContaining(["assets:write", "cms:write", "ecommerce:write", "forms:read", "pages:read", "sites:read", "sites:write"]))
      // Webflow switched User Accounts off on 2026-01-29: nothing asks for their scopes any more.
      expect(url.searchParams.get("scope")!.split(" ").filter((scope) => scope.startsWith("users:"))).toEqual([])
      const values = yield* connect
      const order = [...sim.orders.values()].find((o) => o.siteId === store().id && o.status === "unfulfilled")!
      expect(yield* run("fulfillOrder", { siteId: store().id, orderId: order.orderId }, values)).toMatchObject({
        orderId: order.orderId,
        status: "fulfilled",
        fulfilledOn: expect.stringMatching(/^\d{4}-/),
        customerInfo: { fullName: order.customer }
      })
      expect(order.status).toBe("fulfilled")
    }))

  it.live("a forged state, a used code and a wrong redirect URI are refused", () =>
    Effect.gen(function*() {
      const callback = yield* consent(yield* Connection.authorizationUrl(sitebuilder.connection, app, { redirectUri, state: "real" }))
      expect(callback.get("state")).toBe("real")
      // A callback whose state was tampered with on the way is refused before the code is used.
      callback.set("state", "forged")
      expect((yield* Effect.flip(OAuth2.checkState("real", callback.get("state") ?? undefined)))._tag).toBe("InvalidInput")
      const code = callback.get("code")!
      yield* provide(Connection.exchangeCode(sitebuilder.connection, app, { code, redirectUri }))
      const reused = yield* Effect.flip(provide(Connection.exchangeCode(sitebuilder.connection, app, { code, redirectUri })))
      expect(reused).toMatchObject({ _tag: "AuthenticationFailed", message: "The authorization code is invalid or has been used" })
      const other = yield* consent(yield* Connection.authorizationUrl(sitebuilder.connection, app, { redirectUri, state: "x" }))
      const wrongUri = yield* Effect.flip(provide(Connection.exchangeCode(sitebuilder.connection, app, {
        code: other.get("code")!,
        redirectUri: "http://127.0.0.1:3000/elsewhere"
      })))
      expect(wrongUri.message).toBe("redirect_uri does not match the authorization request")
      const badClient = yield* Effect.flip(provide(Connection.exchangeCode(
        sitebuilder.connection,
        { ...app, clientSecret: "wrong" },
        { code: other.get("code")!, redirectUri }
      )))
      expect(badClient).toMatchObject({ _tag: "AuthenticationFailed", message: "Invalid client credentials" })
      // The authorize and token endpoints check what they are given.
      const wrongType = yield* Effect.promise(() => fetch(`${sim.authorizeUrl}?response_type=token&client_id=${sim.clientId}&redirect_uri=${encodeURIComponent(redirectUri)}`))
      expect(wrongType.status).toBe(400)
      const wrongGrant = yield* Effect.promise(() =>
        fetch(sim.tokenUrl, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ client_id: sim.clientId, client_secret: sim.clientSecret, grant_type: "client_credentials" })
        }).then(async (r) => ({ status: r.status, body: await r.json() }))
      )
      expect(wrongGrant).toEqual({ status: 400, body: { error: "unsupported_grant_type", error_description: "grant_type must be authorization_code" } })
    }))

  it.live("options page through a collection of 130 items; the item keeps all its fields", () =>
    Effect.gen(function*() {
      const values = { ...app, accessToken: sim.issueToken() }
      const options = (action: string, property: string, params: Record<string, unknown>) =>
        executor.options(`sitebuilder/v1/${action}`, property, params).pipe(
          Effect.provide(connectedTo(values, UndiciHttpClient.layer))
        )
      expect((yield* options("fulfillOrder", "siteId", {})).map((s) => s.label)).toEqual(["Acme Store", "Portfolio"])
      expect(yield* options("fulfillOrder", "orderId", { siteId: store().id })).toHaveLength(7)
      const collections = yield* options("getCollectionItem", "collectionId", { siteId: store().id })
      expect(collections.map((c) => c.label)).toEqual(["Products", "Blog Posts", "SKUs"])
      const items = yield* options("getCollectionItem", "itemId", { collectionId: products().id })
      expect(items).toHaveLength(130)
      expect(items[129]!.label).toBe("Product 130")
      // The bulk actions' item lists are multi-selects of the same items.
      expect(yield* options("publishCollectionItems", "itemIds", { collectionId: products().id })).toEqual(items)
      expect(yield* options("deleteCollectionItems", "itemIds", { collectionId: products().id })).toEqual(items)
      const item = yield* run("getCollectionItem", { collectionId: products().id, itemId: items[9]!.value }, values)
      expect(item).toEqual({
        id: items[9]!.value,
        // The locale's CMS id, as Webflow gives it with every item.
        cmsLocaleId: expect.stringMatching(/^[0-9a-f]{24}$/),
        fieldData: { name: "Product 10", slug: "product-10", price: 1000, featured: true },
        isDraft: false,
        isArchived: false,
        lastPublished: "2026-11-01T12:10:00.000Z",
        lastUpdated: "2026-11-01T12:10:00.000Z",
        createdOn: "2026-11-01T12:10:00.000Z"
      })
    }))

  it.live("listCollectionItems: 130 staged items in two pages; a cap of 120 stops after the second; live leaves out drafts", () =>
    Effect.gen(function*() {
      const values = { ...app, accessToken: sim.issueToken() }
      type Listed = { items: Array<{ id: string; fieldData: { name: string } }> }
      const list = (parameters: Record<string, unknown>) =>
        Effect.gen(function*() {
          const before = sim.stats.requests
          const result = (yield* run("listCollectionItems", { collectionId: products().id, ...parameters }, values)) as Listed
          return { items: result.items, requests: sim.stats.requests - before }
        })
      const staged = yield* list({ limit: 5000 })
      expect(staged.items).toHaveLength(130)
      expect(staged.items.map((i) => i.id)).toEqual(Array.from({ length: 130 }, (_, i) => Simulator.seed.productItem(i + 1)))
      expect(staged.requests).toBe(2)
      const capped = yield* list({ limit: 120 })
      expect(capped.items.map((i) => i.fieldData.name)).toEqual(Array.from({ length: 120 }, (_, i) => `Product ${i + 1}`))
      expect(capped.requests).toBe(2)
      const onePage = yield* list({ limit: 100 })
      expect([onePage.items.length, onePage.requests]).toEqual([100, 1])
      const live = yield* list({ live: true, limit: 5000 })
      expect(live.items).toHaveLength(125)
      expect(live.items.some((i) => i.id === Simulator.seed.productItem(25))).toBe(false)
      const sorted = yield* list({ live: true, sortBy: "slug", sortOrder: "desc", limit: 3 })
      expect(sorted.items.map((i) => i.fieldData.name)).toEqual(["Product 99", "Product 98", "Product 97"])
      const named = yield* list({ name: "Product 25" })
      expect(named.items.map((i) => i.id)).toEqual([Simulator.seed.productItem(25)])
      expect((yield* list({ name: "Product 25", live: true })).items).toEqual([])
    }))

  it.live("the paid-account case, a missing scope, unknown ids", () =>
    Effect.gen(function*() {
      const portfolio = [...sim.sites.values()].find((s) => !s.ecommerce)!
      const all = { ...app, accessToken: sim.issueToken() }
      const free = yield* Effect.flip(run("fulfillOrder", { siteId: portfolio.id, orderId: "abc-1000" }, all))
      expect(free).toMatchObject({ _tag: "PaymentRequired", status: 409 })
      expect(free.message).toContain("needs a paid Webflow e-commerce plan")
      const cmsOnly = { ...app, accessToken: sim.issueToken(["cms:read"]) }
      const scope = yield* Effect.flip(run("fulfillOrder", { siteId: store().id, orderId: "abc-1000" }, cmsOnly))
      expect(scope).toMatchObject({ _tag: "PermissionDenied", missingScopes: ["ecommerce:write"] })
      const missing = yield* Effect.flip(run("getCollectionItem", { collectionId: products().id, itemId: "0".repeat(24) }, all))
      expect(missing).toMatchObject({ _tag: "NotFound", message: "Requested resource not found: Item not found" })
      const noOrder = yield* Effect.flip(run("fulfillOrder", { siteId: store().id, orderId: "nope" }, all))
      expect(noOrder).toMatchObject({ _tag: "NotFound" })
    }))

  it.live("tokens are checked: none or an unknown one is a 401 not_authorized", () =>
    Effect.gen(function*() {
      for (const authorization of [undefined, "Bearer not-a-token", "Basic abc"]) {
        const response = yield* Effect.promise(() =>
          fetch(`${sim.baseUrl}/sites`, authorization === undefined ? {} : { headers: { authorization } }).then(async (r) => ({
            status: r.status,
            body: await r.json()
          }))
        )
        expect(response).toEqual({ status: 401, body: { code: "not_authorized", message: "Request not authorized", externalReference: null, details: [] } })
      }
    }))

  it.live("the rate limit: 429 with Retry-After, waited out by the client", () =>
    Effect.gen(function*() {
      // The window is the test's: its clock stands still until the test moves it, so the three
      // requests share one window however slow the machine.
      let heldMs = 1_700_000_000_000
      const limited = yield* Effect.promise(() => Simulator.start({ rateLimit: { limit: 2, windowMs: 1000 }, now: () => heldMs }))
      const token = limited.issueToken()
      const statuses = yield* Effect.promise(() =>
        Promise.all([1, 2, 3].map(() =>
          fetch(`${limited.baseUrl}/sites`, { headers: { authorization: `Bearer ${token}` } }).then((r) => ({
            status: r.status,
            retryAfter: r.headers.get("retry-after"),
            limit: r.headers.get("x-ratelimit-limit")
          }))
        ))
      )
      expect(statuses.map((s) => s.status).sort()).toEqual([200, 200, 429])
      expect(statuses.find((s) => s.status === 429)!.retryAfter).toBe("1")
      expect(statuses.every((s) => s.limit === "2")).toBe(true)
      // A new window: three reads in it, the third refused until the test moves the clock past it
      // (once the refusal is counted); the client waits the Retry-After (1 s) before it retries.
      heldMs += 1000
      const values = { clientId: "c", clientSecret: "s", baseUrl: limited.baseUrl, accessToken: limited.issueToken() }
      const collection = [...limited.collections.values()][0]!
      const item = [...limited.items.values()].find((i) => i.collectionId === collection.id)!
      const refusedBefore = limited.stats.rateLimited
      const started = Date.now()
      const reads = yield* Effect.fork(Effect.forEach([1, 2, 3], () => run("getCollectionItem", { collectionId: collection.id, itemId: item.id }, values)))
      yield* Effect.sleep("10 millis").pipe(Effect.repeat({ until: () => limited.stats.rateLimited > refusedBefore }))
      heldMs += 1000
      yield* Fiber.join(reads)
      expect(limited.stats.rateLimited).toBeGreaterThanOrEqual(refusedBefore + 1)
      // Only a lower bound: the client waited the Retry-After (a slower machine only waits longer).
      expect(Date.now() - started).toBeGreaterThanOrEqual(900)
      yield* Effect.promise(() => limited.close())
    }))
})
