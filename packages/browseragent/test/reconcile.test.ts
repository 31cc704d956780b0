/**
 * `createProfile` is reconcilable: a create cut short is found again as the profile of that
 * name and user id created since the attempt began (its `createdAt`, to the second). The wire
 * (nock: one `GET /api/v3/profiles?query=…`), and the simulator end to end.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import { Executor } from "@x/core"
import { UndiciHttpClient } from "@x/http-undici"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import nock from "nock"
import * as Simulator from "../src/testing/simulator.js"
import { API, API_KEY, connectedTo, executor, step, withFetch } from "./support.js"

const prepared = (parameters: Record<string, unknown>) => Either.getOrThrow(executor.prepare(step("createProfile", parameters)))
const profile = (id: string, name: string | null, userId: string | null, createdAt: string) =>
  ({ id, name, userId, lastUsedAt: null, createdAt, updatedAt: createdAt, cookieDomains: null })
const id = (n: number) => `2f4e6a8c-1b3d-4f5a-9c7e-${String(n).padStart(12, "0")}`

describe("createProfile's reconciliation: the wire", () => {
  beforeAll(() => nock.disableNetConnect())
  afterEach(() => {
    nock.cleanAll()
  })
  afterAll(() => nock.enableNetConnect())

  it.effect("searches by name once; the profile with that name and user id created at or after the attempt is the output", () =>
    Effect.gen(function*() {
      const made = profile(id(2), "Alice", "user-42", "2026-11-24T10:00:00.700Z")
      const scope = nock(API, { reqheaders: { "x-browser-use-api-key": API_KEY } })
        .get("/api/v3/profiles").query({ pageNumber: 1, pageSize: 100, query: "Alice" })
        .reply(200, {
          items: [profile(id(1), "Alice", "user-42", "2026-11-23T10:00:00Z"), made, profile(id(3), "Alice", "user-7", "2026-11-24T10:00:01Z")],
          totalItems: 3,
          pageNumber: 1,
          pageSize: 100
        })
      const parameters = { name: "Alice", userId: "user-42" }
      expect(Executor.reconcilable(prepared(parameters))).toBe(true)
      const found = yield* withFetch(executor.reconcilePrepared(prepared(parameters), parameters, new Date("2026-11-24T10:00:00.400Z")))
      expect(Option.map(found, (output) => (output as { id: string }).id)).toEqual(Option.some(made.id))
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("neither name nor user id: an InvalidInput, nothing sent", () =>
    Effect.gen(function*() {
      const failed = yield* Effect.flip(withFetch(executor.reconcilePrepared(prepared({}), {}, new Date())))
      expect(failed._tag).toBe("InvalidInput")
      expect(failed.message).toContain("a profile created without a name or user id cannot be found again")
    }))
})

describe("createProfile's reconciliation against the simulator", () => {
  let sim: Simulator.Simulator
  beforeAll(async () => {
    sim = await Simulator.start()
  })
  afterAll(() => sim.close())
  const connected = <A, E>(effect: Effect.Effect<A, E, any>) =>
    effect.pipe(Effect.provide(connectedTo({ value: sim.apiKey, baseUrl: sim.baseUrl }, UndiciHttpClient.layer))) as Effect.Effect<A, E>

  it.live("a profile created after the attempt began is found; with a later attempt, none", () =>
    Effect.gen(function*() {
      const parameters = { name: "Reconciled", userId: "user-reconciled" }
      const began = new Date(Date.now() - 1000)
      const created = (yield* connected(executor.run(step("createProfile", parameters)))) as { id: string }
      const found = yield* connected(executor.reconcilePrepared(prepared(parameters), parameters, began))
      expect(Option.map(found, (output) => (output as { id: string }).id)).toEqual(Option.some(created.id))
      expect(yield* connected(executor.reconcilePrepared(prepared(parameters), parameters, new Date(Date.now() + 5000)))).toEqual(Option.none())
    }))
})
