/**
 * The sitebuilder connection's test: `GET /v2/token/introspect` (Webflow's token introspection)
 * pinned with nock, and against the simulator with a valid token (its scopes read back, a
 * token lacking some named) and a wrong one (Webflow's 401 `not_authorized`).
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Contract from "@x/contract"
import { ConnectionTest } from "@x/core"
import { UndiciHttpClient } from "@x/http-undici"
import * as Effect from "effect/Effect"
import nock from "nock"
import { fileURLToPath } from "node:url"
import { sitebuilder, Sitebuilder } from "../src/index.js"
import { ACCESS_TOKEN, API, connectedTo, executor, simulated, SITE, webflowError, withFetch } from "./support.js"

const specPath = fileURLToPath(new URL("../../../../shared/specs/webflow/webflow-data-api-v2-openapi.yml", import.meta.url))

/** Webflow's answer, as its document's example has it. */
const introspection = {
  authorization: {
    id: "55818d58616600637b9a5786",
    createdOn: "2016-10-03T23:12:00.755Z",
    lastUsed: "2016-10-10T21:41:12.736Z",
    grantType: "authorization_code",
    rateLimit: 60,
    scope: "assets:read,assets:write",
    authorizedTo: { siteIds: [SITE], workspaceIds: ["52f3b1f7eafac55d0c64ef91"], userIds: ["545bbecb7bdd6769632504a7"] }
  },
  application: { id: "55131cd036c09f7d07883dfc", description: "My Amazing App", homepage: "https://webflow.com", displayName: "My Amazing App" }
}

describe("the connection test: the wire", () => {
  beforeAll(() => nock.disableNetConnect())
  afterEach(() => nock.cleanAll())
  afterAll(() => nock.enableNetConnect())

  it.effect("GET /v2/token/introspect with the Bearer token; the app, what it may reach, and the scopes it lacks", () =>
    Effect.gen(function*() {
      const scope = nock(API, { reqheaders: { authorization: `Bearer ${ACCESS_TOKEN}` } }).get("/v2/token/introspect").reply(200, introspection)
      const result = yield* withFetch(executor.testConnection(sitebuilder))
      expect(result).toMatchObject({
        connection: "sitebuilder",
        request: { method: "GET", path: "/token/introspect" },
        account: "the app My Amazing App, authorized to 1 workspace and 1 site",
        scopes: ["assets:read", "assets:write"]
      })
      // Every scope the actions need but the two assets ones.
      expect(result.missingScopes).toEqual(sitebuilder.connection.oauth2!.scopes.filter((s) => !s.startsWith("assets:")))
      expect(result.message).toContain("connect again to grant them")
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("Webflow's 401 is refused, saying to connect again; the token never shows", () =>
    Effect.gen(function*() {
      nock(API).get("/v2/token/introspect").reply(401, webflowError("not_authorized", "Request not authorized"))
      const error = yield* Effect.flip(withFetch(executor.testConnection(sitebuilder)))
      expect(error).toBeInstanceOf(ConnectionTest.ConnectionTestFailed)
      expect(error).toMatchObject({ connection: "sitebuilder", reason: "refused", status: 401, providerMessage: "Request not authorized" })
      expect(error.remedy).toContain("connect again")
      expect(JSON.stringify(error)).not.toContain(ACCESS_TOKEN)
    }))
})

describe("the connection test against the simulator", () => {
  const simulation = simulated()
  const test = (values: object) => Effect.provide(executor.testConnection(sitebuilder), connectedTo(values, UndiciHttpClient.layer))
  const needed = sitebuilder.connection.oauth2!.scopes

  it.effect("a token of the scopes connect asks for works: the simulated app and its sites, nothing lacking", () =>
    Effect.gen(function*() {
      const result = yield* test({ ...simulation.values, accessToken: simulation.sim.issueToken(needed) })
      expect(result.account).toBe(`the app Simulated App, authorized to 1 workspace and ${simulation.sim.sites.size} sites`)
      expect([...result.scopes!].sort()).toEqual([...needed].sort())
      expect(result.missingScopes).toEqual([])
    }))

  it.effect("a token of fewer scopes works, and the scopes it lacks are named", () =>
    Effect.gen(function*() {
      const result = yield* test({ ...simulation.values, accessToken: simulation.sim.issueToken(["sites:read"]) })
      expect(result.scopes).toEqual(["sites:read"])
      expect(result.missingScopes).toEqual(needed.filter((s) => s !== "sites:read"))
    }))

  it.runIf(Contract.documentsPresent(specPath))("its request is the document's GET /token/introspect", () =>
    Effect.runPromise(Effect.gen(function*() {
      const recorder = Contract.recording(FetchHttpClient.layer)
      yield* Effect.provide(executor.testConnection(sitebuilder), connectedTo(simulation.values, recorder.layer))
      const contract = Contract.load(specPath)
      expect(recorder.requests.map((request) => contract.operationOf(request, simulation.sim.baseUrl))).toEqual(["GET /token/introspect"])
      expect(recorder.requests.flatMap((request) => contract.check(request, simulation.sim.baseUrl))).toEqual([])
    })))

  it("a wrong token is refused (the typed client's testConnection)", async () => {
    const client = Sitebuilder.client({ ...simulation.values, accessToken: "0".repeat(64) } as never)
    const failure = await client.testConnection().catch((e: unknown) => e)
    await client.close()
    expect(failure).toMatchObject({ _tag: "ConnectionTestFailed", reason: "refused", status: 401, providerMessage: "Request not authorized" })
  })
})
