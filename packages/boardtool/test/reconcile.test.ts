/**
 * `createCard`, `createList` and `createBoard` are reconcilable: a create cut short is found
 * again as the card of that name in that list (the list of that name on that board, the
 * member's board of that name) created since the attempt began (Trello's ids tell when, to the
 * second). The wire (nock: one `GET /1/lists/{id}/cards`, `GET /1/boards/{id}/lists?filter=open`,
 * `GET /1/members/me/boards?filter=open`), and the simulator end to end.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import { Executor } from "@x/core"
import { UndiciHttpClient } from "@x/http-undici"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import nock from "nock"
import * as Simulator from "../src/testing/simulator.js"
import { API, AUTHORIZATION, BOARD, connectedTo, executor, LIST, step, trelloCard, withFetch } from "./support.js"

/** A Trello id created at this time (its first 8 hex digits are Unix seconds). */
const idAt = (iso: string, rest: string) => Math.floor(Date.parse(iso) / 1000).toString(16) + rest
const prepared = (parameters: Record<string, unknown>) => Either.getOrThrow(executor.prepare(step("createCard", parameters)))

describe("createCard's reconciliation: the wire", () => {
  beforeAll(() => nock.disableNetConnect())
  afterEach(() => {
    nock.cleanAll()
  })
  afterAll(() => nock.enableNetConnect())

  it.effect("reads the list's cards once; the newest card of that name created at or after the attempt is the output", () =>
    Effect.gen(function*() {
      const before = { ...trelloCard, id: idAt("2026-11-24T09:59:59Z", "0000000000000001"), name: "Launch" }
      const made = { ...trelloCard, id: idAt("2026-11-24T10:00:00Z", "0000000000000002"), name: "Launch" }
      const other = { ...trelloCard, id: idAt("2026-11-24T10:00:03Z", "0000000000000003"), name: "Something else" }
      const scope = nock(API, { reqheaders: { authorization: AUTHORIZATION } }).get(`/1/lists/${LIST}/cards`).reply(200, [before, made, other])
      const parameters = { idList: LIST, name: "Launch" }
      // The attempt began at 10:00:00.400: the card created in that second counts.
      const found = yield* withFetch(executor.reconcilePrepared(prepared(parameters), parameters, new Date("2026-11-24T10:00:00.400Z")))
      expect(Option.map(found, (card) => (card as { id: string }).id)).toEqual(Option.some(made.id))
      expect(scope.isDone()).toBe(true)
      expect(Executor.reconcilable(prepared(parameters))).toBe(true)
    }))

  it.effect("none of that name since the attempt: None (running it again creates nothing twice); no name: an InvalidInput", () =>
    Effect.gen(function*() {
      const old = { ...trelloCard, id: idAt("2026-11-24T09:00:00Z", "0000000000000001"), name: "Launch" }
      nock(API).get(`/1/lists/${LIST}/cards`).reply(200, [old])
      const parameters = { idList: LIST, name: "Launch" }
      expect(yield* withFetch(executor.reconcilePrepared(prepared(parameters), parameters, new Date("2026-11-24T10:00:00Z")))).toEqual(Option.none())
      const unnamed = { idList: LIST }
      const failed = yield* Effect.flip(withFetch(executor.reconcilePrepared(prepared(unnamed), unnamed, new Date())))
      expect(failed._tag).toBe("InvalidInput")
      expect(failed.message).toContain("a card created without a name cannot be found again")
    }))
})

describe("createList's reconciliation: the wire", () => {
  beforeAll(() => nock.disableNetConnect())
  afterEach(() => {
    nock.cleanAll()
  })
  afterAll(() => nock.enableNetConnect())

  it.effect("reads the board's open lists once; the list of that name created since the attempt is the output", () =>
    Effect.gen(function*() {
      const list = (id: string, name: string) => ({ id, name, closed: false, idBoard: BOARD, pos: 16384, subscribed: false })
      const made = list(idAt("2026-11-24T10:00:01Z", "0000000000000011"), "Backlog")
      const scope = nock(API, { reqheaders: { authorization: AUTHORIZATION } }).get(`/1/boards/${BOARD}/lists`).query({ filter: "open" })
        .reply(200, [list(idAt("2026-11-24T09:00:00Z", "0000000000000010"), "Backlog"), made])
      const parameters = { idBoard: BOARD, name: "Backlog" }
      const lists = Either.getOrThrow(executor.prepare(step("createList", parameters)))
      const found = yield* withFetch(executor.reconcilePrepared(lists, parameters, new Date("2026-11-24T10:00:00Z")))
      expect(Option.map(found, (output) => (output as { id: string }).id)).toEqual(Option.some(made.id))
      expect(scope.isDone()).toBe(true)
    }))
})

describe("createBoard's reconciliation: the wire", () => {
  beforeAll(() => nock.disableNetConnect())
  afterEach(() => {
    nock.cleanAll()
  })
  afterAll(() => nock.enableNetConnect())

  it.effect("reads the member's open boards once; the board of that name created since the attempt is the output", () =>
    Effect.gen(function*() {
      const board = (id: string, name: string) => ({
        id,
        name,
        desc: "",
        closed: false,
        idOrganization: null,
        url: `https://trello.com/b/${id}`,
        shortUrl: `https://trello.com/b/${id}`,
        prefs: { permissionLevel: "private" }
      })
      const made = board(idAt("2026-11-24T10:00:02Z", "0000000000000021"), "Launch")
      const scope = nock(API, { reqheaders: { authorization: AUTHORIZATION } }).get("/1/members/me/boards").query({ filter: "open" })
        .reply(200, [board(idAt("2026-11-23T10:00:00Z", "0000000000000020"), "Launch"), made, board(idAt("2026-11-24T10:00:05Z", "0000000000000022"), "Other")])
      const parameters = { name: "Launch" }
      const boards = Either.getOrThrow(executor.prepare(step("createBoard", parameters)))
      expect(Executor.reconcilable(boards)).toBe(true)
      const found = yield* withFetch(executor.reconcilePrepared(boards, parameters, new Date("2026-11-24T10:00:00Z")))
      expect(Option.map(found, (output) => (output as { id: string }).id)).toEqual(Option.some(made.id))
      expect(scope.isDone()).toBe(true)
    }))
})

describe("createCard's reconciliation against the simulator", () => {
  let sim: Simulator.Simulator
  beforeAll(async () => {
    sim = await Simulator.start({ rateLimits: false })
  })
  afterAll(() => sim.close())
  const connected = <A, E>(effect: Effect.Effect<A, E, any>) =>
    effect.pipe(Effect.provide(connectedTo({ key: sim.key, token: sim.token, baseUrl: sim.baseUrl }, UndiciHttpClient.layer))) as Effect.Effect<A, E>

  it.live("a card created after the attempt began is found; with a later attempt, none", () =>
    Effect.gen(function*() {
      const parameters = { idList: Simulator.seed.lists.roadmapDoing, name: "Reconciled card" }
      const began = new Date(Date.now() - 1000)
      const created = (yield* connected(executor.run(step("createCard", parameters)))) as { id: string }
      const found = yield* connected(executor.reconcilePrepared(prepared(parameters), parameters, began))
      expect(Option.map(found, (card) => (card as { id: string }).id)).toEqual(Option.some(created.id))
      const later = yield* connected(executor.reconcilePrepared(prepared(parameters), parameters, new Date(Date.now() + 5000)))
      expect(later).toEqual(Option.none())
    }))

  it.live("a list created after the attempt began is found; with a later attempt, none", () =>
    Effect.gen(function*() {
      const parameters = { idBoard: Simulator.seed.boards.roadmap, name: "Reconciled list" }
      const lists = Either.getOrThrow(executor.prepare(step("createList", parameters)))
      const began = new Date(Date.now() - 1000)
      const created = (yield* connected(executor.run(step("createList", parameters)))) as { id: string }
      const found = yield* connected(executor.reconcilePrepared(lists, parameters, began))
      expect(Option.map(found, (list) => (list as { id: string }).id)).toEqual(Option.some(created.id))
      expect(yield* connected(executor.reconcilePrepared(lists, parameters, new Date(Date.now() + 5000)))).toEqual(Option.none())
    }))

  it.live("a board created after the attempt began is found; with a later attempt, none", () =>
    Effect.gen(function*() {
      const parameters = { name: "Reconciled board" }
      const boards = Either.getOrThrow(executor.prepare(step("createBoard", parameters)))
      const began = new Date(Date.now() - 1000)
      const created = (yield* connected(executor.run(step("createBoard", parameters)))) as { id: string }
      const found = yield* connected(executor.reconcilePrepared(boards, parameters, began))
      expect(Option.map(found, (board) => (board as { id: string }).id)).toEqual(Option.some(created.id))
      expect(yield* connected(executor.reconcilePrepared(boards, parameters, new Date(Date.now() + 5000)))).toEqual(Option.none())
    }))
})
