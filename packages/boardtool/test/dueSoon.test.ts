import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import { Component } from "@x/core"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/TestClock"
import nock from "nock"
import * as Simulator from "../src/testing/simulator.js"
import { boardtool } from "../src/index.js"
import { API, AUTHORIZATION, BOARD, executor, LIST, trelloCard, withFetch } from "./support.js"

const trello = () => nock(API, { reqheaders: { authorization: AUTHORIZATION } })
const onBoard = { label: "Due soon", name: "dueSoon", type: "boardtool/v1/cardDueSoon", parameters: { idBoard: BOARD, hours: 2 } }
const onList = { ...onBoard, parameters: { idList: LIST, hours: 2 } }
const fields = "name,desc,idBoard,idList,due,dueComplete,closed"
const T0 = Date.parse("2026-11-21T10:00:00.000Z")
const at = (ms: number) => new Date(T0 + ms).toISOString()
const hour = 3600_000
const dated = (id: string, due: string | null, extra: { dueComplete?: boolean; closed?: boolean } = {}) => ({
  ...trelloCard,
  id,
  name: `card ${id.slice(-2)}`,
  due,
  dueComplete: extra.dueComplete ?? false,
  closed: extra.closed ?? false
})
const id = (n: number) => `61a0f0f0f0f0f0f0f0f0f0${n.toString(16).padStart(2, "0")}`

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})
afterAll(() => nock.enableNetConnect())

describe("cardDueSoon (nock, TestClock)", () => {
  it.effect("GET /1/boards/{id}/cards?fields=…: the baseline emits nothing; a card entering the window fires once, " +
    "again when its due date changes; completed, archived and undated cards never", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const inWindow = dated(id(1), at(hour))
      const later = dated(id(2), at(5 * hour))
      const skipped = [dated(id(3), at(hour), { dueComplete: true }), dated(id(4), at(hour), { closed: true }), dated(id(5), null)]
      const scope = trello()
        .get(`/1/boards/${BOARD}/cards`).query({ fields }).reply(200, [inWindow, later, ...skipped])
        // 4 hours on: `later` is 1 hour away.
        .get(`/1/boards/${BOARD}/cards`).query({ fields }).reply(200, [later, ...skipped])
        .get(`/1/boards/${BOARD}/cards`).query({ fields }).reply(200, [later, ...skipped])
        // Its due date moved 10 minutes later: a new event.
        .get(`/1/boards/${BOARD}/cards`).query({ fields }).reply(200, [{ ...later, due: at(5 * hour + 600_000) }])
      const baseline = yield* withFetch(executor.poll(onBoard, undefined))
      expect(baseline.events).toEqual([])
      expect(baseline.cursor).toEqual({ polledAt: T0, inWindow: [`${id(1)}:${at(hour)}`] })
      yield* TestClock.adjust("4 hours")
      const entered = yield* withFetch(executor.poll(onBoard, baseline.cursor))
      expect(entered.events).toEqual([{
        id: `${id(2)}:${at(5 * hour)}`,
        output: { id: id(2), name: "card 02", desc: trelloCard.desc, idBoard: trelloCard.idBoard, idList: trelloCard.idList, due: at(5 * hour) }
      }])
      const again = yield* withFetch(executor.poll(onBoard, entered.cursor))
      expect(again.events).toEqual([])
      const moved = yield* withFetch(executor.poll(onBoard, again.cursor))
      expect(moved.events.map((e) => e.id)).toEqual([`${id(2)}:${at(5 * hour + 600_000)}`])
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("a card whose due date passed between two polls still fires; a list is read at /1/lists/{id}/cards", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const scope = trello()
        .get(`/1/lists/${LIST}/cards`).query({ fields }).reply(200, [])
        .get(`/1/lists/${LIST}/cards`).query({ fields }).reply(200, [dated(id(6), at(3 * 60_000))])
      const baseline = yield* withFetch(executor.poll(onList, undefined))
      yield* TestClock.adjust("5 minutes")
      const next = yield* withFetch(executor.poll(onList, baseline.cursor))
      expect(next.events.map((e) => e.id)).toEqual([`${id(6)}:${at(3 * 60_000)}`])
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("neither board nor list is InvalidInput; nothing is sent", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(withFetch(executor.poll({ ...onBoard, parameters: { hours: 2 } }, undefined)))
      expect(error.message).toBe("step \"dueSoon\" (boardtool/v1/cardDueSoon): idBoard: a board or a list is required")
    }))

  it.effect("sample: the cards still to do whose due date is nearest to now", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      trello().get(`/1/boards/${BOARD}/cards`).query({ fields }).reply(200, [
        dated(id(1), at(-30 * hour)),
        dated(id(2), at(2 * hour)),
        dated(id(3), at(-hour)),
        dated(id(4), at(hour), { dueComplete: true })
      ])
      const events = yield* withFetch(executor.sample(onBoard))
      expect(events.map((e) => e.id)).toEqual([`${id(3)}:${at(-hour)}`, `${id(2)}:${at(2 * hour)}`, `${id(1)}:${at(-30 * hour)}`])
    }))

  it("describe: a polling trigger every 5 minutes, with sample data", () => {
    const trigger = Component.describe(boardtool).triggers.find((t) => t.name === "cardDueSoon")
    expect(trigger).toMatchObject({ kind: "POLLING", intervalMillis: 300_000, sample: true })
  })
})

describe("cardDueSoon and newCard's samples on the simulator", () => {
  it.live("cards whose due date is set (PUT /cards/{id}) come into the window; completed ones do not", () =>
    Effect.promise(async () => {
      nock.enableNetConnect("127.0.0.1")
      const sim = await Simulator.start()
      try {
        const values = { key: sim.key, token: sim.token, baseUrl: sim.baseUrl }
        const step = { ...onBoard, parameters: { idBoard: Simulator.seed.boards.roadmap, hours: 2 } }
        const poll = (cursor: unknown) => Effect.runPromise(withFetch(executor.poll(step, cursor), values))
        const put = (id: string, query: string) =>
          fetch(`${sim.baseUrl}/cards/${id}?${query}`, { method: "PUT", headers: { authorization: `OAuth oauth_consumer_key="${sim.key}", oauth_token="${sim.token}"` } })
        const baseline = await poll(undefined)
        expect(baseline.events).toEqual([])
        const soon = new Date(Date.now() + hour).toISOString()
        expect((await put(Simulator.seed.cards.launchPost, `due=${encodeURIComponent(soon)}`)).status).toBe(200)
        // Completed: never fires.
        expect((await put(Simulator.seed.cards.loginRedirect, `due=${encodeURIComponent(soon)}&dueComplete=true`)).status).toBe(200)
        expect((await put(Simulator.seed.cards.loginRedirect, "dueComplete=maybe")).status).toBe(400)
        const next = await poll(baseline.cursor)
        expect(next.events).toEqual([{
          id: `${Simulator.seed.cards.launchPost}:${soon}`,
          output: expect.objectContaining({ id: Simulator.seed.cards.launchPost, name: "Write the launch post", due: soon })
        }])
        expect((await poll(next.cursor)).events).toEqual([])
        // newCard's sample: the newest cards created in the list first.
        const created = await fetch(`${sim.baseUrl}/cards?idList=${Simulator.seed.lists.roadmapToDo}&name=Newest`, {
          method: "POST",
          headers: { authorization: `OAuth oauth_consumer_key="${sim.key}", oauth_token="${sim.token}"` }
        }).then((r) => r.json() as Promise<{ id: string }>)
        const sample = await Effect.runPromise(withFetch(executor.sample({
          label: "New card", name: "newCard", type: "boardtool/v1/newCard", parameters: { idList: Simulator.seed.lists.roadmapToDo }
        }), values))
        // Each event is the card's createCard action (its id the event's, as a delivery's would be).
        const createdBy = (idCard: string) => sim.actions.find((a) => a.type === "createCard" && (a.data["card"] as { id: string }).id === idCard)!.id
        expect(sample.map((e) => e.id)).toEqual([createdBy(created.id), createdBy(Simulator.seed.cards.launchPost)])
        expect(sample.map((e) => (e.output as { id: string }).id)).toEqual([created.id, Simulator.seed.cards.launchPost])
        expect(sample[0]!.output).toEqual({ id: created.id, name: "Newest", desc: "", idBoard: Simulator.seed.boards.roadmap, idList: Simulator.seed.lists.roadmapToDo })
      } finally {
        await sim.close()
        nock.disableNetConnect()
      }
    }))
})

