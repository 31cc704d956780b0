/**
 * The boardtool connection's test: `GET /1/members/me` (the token's member) pinned with nock,
 * and against the simulator with the right token and a wrong one (Trello's 401 `invalid token`,
 * plain text).
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Contract from "@x/contract"
import { ConnectionTest } from "@x/core"
import * as Effect from "effect/Effect"
import nock from "nock"
import { Boardtool, boardtool } from "../src/index.js"
import * as Simulator from "../src/testing/simulator.js"
import { API, AUTHORIZATION, connectedTo, connection, executor, TOKEN, withFetch } from "./support.js"
import * as TrelloDocument from "./trelloDocument.js"

const MEMBER = "61a0f0f0f0f0f0f0f0f0f0d1"

describe("the connection test: the wire", () => {
  beforeAll(() => nock.disableNetConnect())
  afterEach(() => nock.cleanAll())
  afterAll(() => nock.enableNetConnect())

  it.effect("GET /1/members/me with the credentials in the OAuth header; says whose they are", () =>
    Effect.gen(function*() {
      const scope = nock(API, { reqheaders: { authorization: AUTHORIZATION } })
        .get("/1/members/me").query({ fields: "username,fullName" })
        .reply(200, { id: MEMBER, username: "alice", fullName: "Alice Martin" })
      const result = yield* withFetch(executor.testConnection(boardtool))
      expect(result).toMatchObject({ connection: "boardtool", account: "Alice Martin (@alice)", request: { method: "GET", path: "/members/me" } })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("Trello's 401 `invalid token` is refused, with what to do and never the token", () =>
    Effect.gen(function*() {
      nock(API).get("/1/members/me").query(true).reply(401, "invalid token", { "content-type": "text/plain; charset=utf-8" })
      const error = yield* Effect.flip(withFetch(executor.testConnection(boardtool)))
      expect(error).toBeInstanceOf(ConnectionTest.ConnectionTestFailed)
      expect(error).toMatchObject({ connection: "boardtool", reason: "refused", status: 401, providerMessage: "invalid token" })
      expect(error.message).toContain("https://trello.com/power-ups/admin")
      expect(error.message).not.toContain(TOKEN)
    }))
})

describe("the connection test against the simulator", () => {
  let sim: Simulator.Simulator
  beforeAll(async () => {
    sim = await Simulator.start({ rateLimits: false })
  })
  afterAll(() => sim.close())

  it.effect("the simulator's token works, and names its member", () =>
    Effect.gen(function*() {
      const result = yield* executor.testConnection(boardtool).pipe(
        Effect.provide(connectedTo({ key: sim.key, token: sim.token, baseUrl: sim.baseUrl }))
      )
      expect(result.account).toMatch(/\(@simulated\)$/)
      expect(result.missingScopes).toEqual([])
    }))

  it.runIf(TrelloDocument.hasSpec)("its request is the document's GET /members/{id}, with parameters it declares", () =>
    Effect.runPromise(Effect.gen(function*() {
      const recorder = Contract.recording(FetchHttpClient.layer)
      yield* executor.testConnection(boardtool).pipe(
        Effect.provide(connectedTo({ key: sim.key, token: sim.token, baseUrl: sim.baseUrl }, recorder.layer))
      )
      const contract = TrelloDocument.load()
      expect(recorder.requests.map((request) => contract.operationOf(request, sim.baseUrl))).toEqual(["GET /members/{id}"])
      expect(recorder.requests.flatMap((request) => contract.check(request, sim.baseUrl))).toEqual([])
    })))

  it("a wrong token is refused (the typed client's testConnection)", async () => {
    const client = Boardtool.client({ ...connection, key: sim.key, baseUrl: sim.baseUrl })
    const failure = await client.testConnection().catch((e: unknown) => e)
    await client.close()
    expect(failure).toMatchObject({ _tag: "ConnectionTestFailed", reason: "refused", status: 401, providerMessage: "invalid token" })
  })
})
