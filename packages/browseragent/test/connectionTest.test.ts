/**
 * The browseragent connection's test: `GET /api/v3/billing/account` (the key's account) pinned
 * with nock, and against the simulator with the right key and a wrong one (Browser Use's 401
 * `{"detail": …}`).
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Contract from "@x/contract"
import { ConnectionTest } from "@x/core"
import * as Effect from "effect/Effect"
import nock from "nock"
import { fileURLToPath } from "node:url"
import { browseragent, Browseragent } from "../src/index.js"
import * as Simulator from "../src/testing/simulator.js"
import { API, API_KEY, connectedTo, executor, withFetch } from "./support.js"

const specPath = fileURLToPath(new URL("../../../../shared/specs/browseragent/browser-use-openapi-v3.json", import.meta.url))

/** Browser Use's AccountView (abridged). */
const account = {
  name: "Ada's team",
  totalCreditsBalanceUsd: 12.5,
  monthlyCreditsBalanceUsd: 10,
  additionalCreditsBalanceUsd: 2.5,
  rateLimit: 25,
  planInfo: { planName: "Pro", subscriptionStatus: "active", subscriptionId: "sub_1", subscriptionCurrentPeriodEnd: null, subscriptionCanceledAt: null },
  projectId: "5b0f3c2a-0000-4f7a-b6c5-d4e3f2a1b0c9"
}

describe("the connection test: the wire", () => {
  beforeAll(() => nock.disableNetConnect())
  afterEach(() => nock.cleanAll())
  afterAll(() => nock.enableNetConnect())

  it.effect("GET /api/v3/billing/account with the key; says whose account it is", () =>
    Effect.gen(function*() {
      const scope = nock(API, { reqheaders: { "x-browser-use-api-key": API_KEY } }).get("/api/v3/billing/account").reply(200, account)
      const result = yield* withFetch(executor.testConnection(browseragent))
      expect(result).toMatchObject({ connection: "browseragent", account: "Ada's team", request: { method: "GET", path: "/billing/account" } })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("an account without a name is named by its project", () =>
    Effect.gen(function*() {
      nock(API).get("/api/v3/billing/account").reply(200, { ...account, name: null })
      expect((yield* withFetch(executor.testConnection(browseragent))).account).toBe(`project ${account.projectId}`)
    }))

  it.effect("Browser Use's 401 is refused, with where to create a key; the key never shows", () =>
    Effect.gen(function*() {
      nock(API).get("/api/v3/billing/account").reply(401, { detail: "Invalid or missing API key" })
      const error = yield* Effect.flip(withFetch(executor.testConnection(browseragent)))
      expect(error).toBeInstanceOf(ConnectionTest.ConnectionTestFailed)
      expect(error).toMatchObject({ connection: "browseragent", reason: "refused", status: 401, providerMessage: "Invalid or missing API key" })
      expect(error.remedy).toContain("https://cloud.browser-use.com/settings")
      expect(JSON.stringify(error)).not.toContain(API_KEY)
    }))
})

describe("the connection test against the simulator", () => {
  let sim: Simulator.Simulator
  beforeAll(async () => {
    sim = await Simulator.start()
  })
  afterAll(() => sim.close())

  it.effect("the simulator's key works, and names its account", () =>
    Effect.gen(function*() {
      const result = yield* executor.testConnection(browseragent).pipe(
        Effect.provide(connectedTo({ value: sim.apiKey, baseUrl: sim.baseUrl }))
      )
      expect(result.account).toBe(sim.account.name)
    }))

  it.runIf(Contract.documentsPresent(specPath))("its request is the v3 document's GET /billing/account", () =>
    Effect.runPromise(Effect.gen(function*() {
      const recorder = Contract.recording(FetchHttpClient.layer)
      yield* executor.testConnection(browseragent).pipe(Effect.provide(connectedTo({ value: sim.apiKey, baseUrl: sim.baseUrl }, recorder.layer)))
      const contract = Contract.load(specPath)
      expect(recorder.requests.map((request) => contract.operationOf(request, sim.baseUrl))).toEqual(["GET /billing/account"])
      expect(recorder.requests.flatMap((request) => contract.check(request, sim.baseUrl))).toEqual([])
    })))

  it("a wrong key is refused (the typed client's testConnection)", async () => {
    const client = Browseragent.client({ value: API_KEY, baseUrl: sim.baseUrl })
    const failure = await client.testConnection().catch((e: unknown) => e)
    await client.close()
    expect(failure).toMatchObject({ _tag: "ConnectionTestFailed", reason: "refused", status: 401, providerMessage: "Invalid or missing API key" })
  })
})
