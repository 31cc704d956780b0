import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { UndiciHttpClient } from "@x/http-undici"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import { createServer, type Server } from "node:http"
import * as Simulator from "../src/testing/simulator.js"
import { connectedTo, executor, kit, simulatorConnection, step } from "./support.js"

let sim: Simulator.Simulator

beforeAll(async () => {
  sim = await Simulator.start({ deliveryRetryDelayMs: 20, deactivateAfterFailures: 4 })
})
afterAll(() => sim.close())

/** The Card the newCard trigger outputs: the five fields of a created card. */
const fiveFields = (card: unknown) => {
  const { desc, id, idBoard, idList, name } = card as Record<string, unknown>
  return { id, desc, idBoard, idList, name }
}

const { options, provide, run } = kit.connected(() => simulatorConnection(sim), UndiciHttpClient.layer)

/** A webhook receiver on loopback that hands every request to the trigger, as the runner does. */
const receiver = (trigger: object, state: () => unknown, answer?: (n: number) => number | undefined) => {
  const events: Array<{ id: string; output: unknown }> = []
  let posts = 0
  let url = ""
  const server: Server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const forced = req.method === "POST" ? answer?.(++posts) : undefined
      if (forced !== undefined) {
        res.writeHead(forced).end()
        return
      }
      const request = {
        method: req.method ?? "POST",
        url,
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : v])),
        body: new Uint8Array(Buffer.concat(chunks))
      }
      Effect.runPromise(
        executor.handleDelivery(trigger as never, state(), request).pipe(
          provide
        )
      ).then(
        (result) => {
          events.push(...result.events)
          res.writeHead(result.response.status).end(result.response.body)
        },
        () => res.writeHead(500).end()
      )
    })
  })
  return {
    events,
    start: Effect.promise(() =>
      new Promise<string>((resolve) =>
        server.listen(0, "127.0.0.1", () => {
          url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks/newCard`
          resolve(url)
        })
      )
    ),
    url: () => url,
    close: Effect.promise(() => new Promise((resolve) => server.close(resolve)))
  }
}

describe("boardtool against the simulator", () => {
  it.live("the longest name and description, non-ASCII included, go through (a form body, not a URL)", () =>
    Effect.gen(function*() {
      const list = [...sim.lists.values()][0]!
      const desc = "é".repeat(16384)
      const created = yield* run("createCard", { idList: list.id, name: "ü".repeat(16384), desc })
      expect(created).toMatchObject({ desc, idList: list.id })
      yield* run("createBoard", { name: "ß".repeat(16384), desc })
      expect([...sim.boards.values()].some((b) => b.desc === desc)).toBe(true)
    }))

  it.live("numbers a new card like Trello: idShort counts the board's cards, pos puts it at the bottom of its list", () =>
    Effect.gen(function*() {
      const fresh = yield* Effect.acquireRelease(Effect.promise(() => Simulator.start()), (s) => Effect.promise(() => s.close()))
      const values = { key: fresh.key, token: fresh.token, baseUrl: fresh.baseUrl }
      const create = (idList: string) =>
        Effect.map(
          executor.run(step("createCard", { idList, name: "n" })).pipe(Effect.provide(connectedTo(values, UndiciHttpClient.layer))),
          (card) => fresh.cards.get((card as { id: string }).id)!
        )
      const { lists } = Simulator.seed
      // Seeded: one card in Roadmap's To Do, one in its Doing; one in Operations' To Do.
      const numbers = []
      for (const idList of [lists.roadmapToDo, lists.roadmapDoing, lists.roadmapToDo, lists.roadmapDone, lists.operationsToDo]) {
        const card = yield* create(idList)
        numbers.push([card.idShort, card.pos])
      }
      expect(numbers).toEqual([[3, 2 * 16384], [4, 2 * 16384], [5, 3 * 16384], [6, 16384], [2, 2 * 16384]])
    }).pipe(Effect.scoped))

  it.live("two concurrent enables of the same webhook make one; closing stops deliveries and their retries", () =>
    Effect.gen(function*() {
      // A retry waits 10 minutes: a close that waited for it would outlast the test's time limit.
      const other = yield* Effect.promise(() => Simulator.start({ deliveryRetryDelayMs: 600_000 }))
      const values = { key: other.key, token: other.token, baseUrl: other.baseUrl }
      const hits: Array<string> = []
      const failing = createServer((req, res) => {
        hits.push(req.method ?? "")
        res.writeHead(req.method === "HEAD" ? 200 : 500).end()
      })
      yield* Effect.promise(() => new Promise<void>((resolve) => failing.listen(0, "127.0.0.1", resolve)))
      const url = `http://127.0.0.1:${(failing.address() as { port: number }).port}/hook`
      const list = [...other.lists.values()][0]!
      const trigger = { label: "N", name: "n", type: "boardtool/v1/newCard", parameters: { idList: list.id } }
      yield* Effect.gen(function*() {
        const both = yield* Effect.all(
          [executor.enableTrigger(trigger, url), executor.enableTrigger(trigger, url)].map((e) =>
            Effect.either(e.pipe(Effect.provide(connectedTo(values, UndiciHttpClient.layer))))
          ),
          { concurrency: 2 }
        )
        // Both may list no webhook before either is created: the later POST is then Trello's 400.
        const [webhook] = [...other.webhooks.values()]
        expect(other.webhooks.size).toBe(1)
        for (const result of both) {
          if (result._tag === "Right") expect(result.right).toEqual({ webhookId: webhook!.id })
          else expect(result.left).toMatchObject({ message: "A webhook with that callback, model, and token already exists" })
        }
        yield* executor.run(step("createCard", { idList: list.id, name: "x" })).pipe(Effect.provide(connectedTo(values, UndiciHttpClient.layer)))
        // The delivery's first attempt made (and failed): its retry now waits.
        yield* Effect.repeat(Effect.sync(() => other.deliveries.length), { schedule: Schedule.spaced("10 millis"), until: (n) => n > 0 })
        // close settles every delivery, retries waiting included: nothing is sent after it.
        yield* Effect.promise(() => other.close())
        yield* Effect.promise(() => other.idle())
        // One HEAD per enable attempt that got that far, one failed POST; no retry after close.
        expect(hits.filter((m) => m === "POST")).toHaveLength(1)
        expect(other.deliveries.map((d) => d.attempt)).toEqual([1])
      }).pipe(Effect.ensuring(Effect.promise(() => new Promise((resolve) => failing.close(resolve)))))
    }))

  it.live("boards → lists → createCard → getCard → createBoard, as a workflow would", () =>
    Effect.gen(function*() {
      const boards = yield* options("createCard", "idBoard", {})
      expect(boards.map((b) => b.label)).toEqual(expect.arrayContaining(["Product Roadmap", "Operations"]))
      const idBoard = boards.find((b) => b.label === "Product Roadmap")!.value
      const lists = yield* options("createCard", "idList", { idBoard })
      expect(lists.map((l) => l.label)).toEqual(["To Do", "Doing", "Done"])
      const created = yield* run("createCard", { idBoard, idList: lists[2]!.value, name: "Ship it", desc: "Today." })
      expect(created).toMatchObject({ idBoard, idList: lists[2]!.value, name: "Ship it", desc: "Today." })
      const id = (created as { id: string }).id
      expect(yield* run("getCard", { id })).toEqual(created)
      const cards = yield* options("getCard", "id", { idBoard })
      expect(cards.map((c) => c.label)).toContain("Ship it")
      expect(yield* run("createBoard", { name: "Launch", desc: "Q4" })).toMatchObject({ name: "Launch", desc: "Q4", closed: false })
      expect([...sim.boards.values()].map((b) => b.name)).toContain("Launch")
    }))

  it.live("its errors are Trello's: invalid token, invalid id, not found", () =>
    Effect.gen(function*() {
      const badToken = yield* Effect.flip(kit.run("getCard", { id: "0".repeat(24) }, { ...simulatorConnection(sim), token: "wrong-token" }, UndiciHttpClient.layer))
      expect(badToken).toMatchObject({ _tag: "AuthenticationFailed", message: "invalid token" })
      const missing = yield* Effect.flip(run("getCard", { id: "0".repeat(24) }))
      expect(missing).toMatchObject({ _tag: "NotFound", message: "The requested resource was not found." })
      const custom = yield* Effect.flip(run("customAction", { method: "GET", path: "/cards/not-an-id" }))
      expect(custom).toMatchObject({ _tag: "InvalidInput", message: "invalid id" })
      const viaCustom = yield* run("customAction", { method: "GET", path: "/members/me/boards", query: { fields: "name" } })
      expect(viaCustom).toMatchObject({ status: 200 })
    }))

  it.live("newCard end to end: enable (HEAD check), a card created, a signed delivery, the event; disable", () =>
    Effect.gen(function*() {
      const board = [...sim.boards.values()][0]!
      const list = [...sim.lists.values()].find((l) => l.idBoard === board.id)!
      let state: unknown
      const trigger = { label: "New card", name: "newCard", type: "boardtool/v1/newCard", parameters: { idBoard: board.id, idList: list.id } }
      const hooks = receiver(trigger, () => state)
      const callbackUrl = yield* hooks.start
      state = yield* executor.enableTrigger(trigger, callbackUrl).pipe(provide)
      const webhookId = (state as { webhookId: string }).webhookId
      expect(sim.webhooks.get(webhookId)).toMatchObject({ idModel: list.id, callbackURL: callbackUrl })
      const created = yield* run("createCard", { idList: list.id, name: "From the trigger test", desc: "With a description." })
      yield* Effect.promise(() => sim.idle())
      expect(hooks.events).toEqual([{ id: expect.stringMatching(/^[0-9a-f]{24}$/), output: fiveFields(created) }])
      // A card in another list of the board is not this trigger's.
      const other = [...sim.lists.values()].find((l) => l.idBoard === board.id && l.id !== list.id)!
      yield* run("createCard", { idList: other.id, name: "Elsewhere" })
      yield* Effect.promise(() => sim.idle())
      expect(hooks.events).toHaveLength(1)
      yield* executor.disableTrigger(trigger, state).pipe(provide)
      expect(sim.webhooks.has(webhookId)).toBe(false)
      yield* hooks.close
    }))

  it.live("newCard enabled twice with one URL: one webhook, one delivery per card; reactivated if off; another URL: a second", () =>
    Effect.gen(function*() {
      const board = [...sim.boards.values()][0]!
      const list = [...sim.lists.values()].filter((l) => l.idBoard === board.id)[2]!
      const trigger = { label: "New card", name: "newCard", type: "boardtool/v1/newCard", parameters: { idList: list.id } }
      const enable = (url: string) =>
        Effect.map(
          executor.enableTrigger(trigger, url).pipe(provide),
          (state) => state as { webhookId: string }
        )
      let state: unknown
      const hooks = receiver(trigger, () => state)
      const url = yield* hooks.start
      const before = sim.webhooks.size
      const first = yield* enable(url)
      state = first
      // Enabled again (a restart that lost the state): the same webhook, not a second, not a 400.
      expect(yield* enable(url)).toEqual(first)
      expect([...sim.webhooks.values()].filter((w) => w.callbackURL === url)).toHaveLength(1)
      expect(sim.webhooks.size).toBe(before + 1)
      const created = yield* run("createCard", { idList: list.id, name: "Delivered once" })
      yield* Effect.promise(() => sim.idle())
      expect(sim.deliveries.filter((d) => d.webhookId === first.webhookId)).toHaveLength(1)
      expect(hooks.events).toEqual([{ id: expect.stringMatching(/^[0-9a-f]{24}$/), output: fiveFields(created) }])

      // Turned off (as Trello does after a month of failures): enabling turns it back on.
      sim.webhooks.get(first.webhookId)!.active = false
      expect(yield* enable(url)).toEqual(first)
      expect(sim.webhooks.get(first.webhookId)!.active).toBe(true)

      // Another callback URL on the same list is another webhook.
      let otherState: unknown
      const other = receiver(trigger, () => otherState)
      const second = yield* enable(yield* other.start)
      otherState = second
      expect(second.webhookId).not.toBe(first.webhookId)
      expect(sim.webhooks.size).toBe(before + 2)

      // The token's listing is Trello's: every field of each webhook, no more.
      const listed = (yield* run("customAction", { method: "GET", path: `/tokens/${sim.token}/webhooks` })) as { body: Array<Record<string, unknown>> }
      expect(listed.body.find((w) => w["id"] === first.webhookId)).toEqual({
        id: first.webhookId,
        description: `New cards on list ${list.id}`,
        idModel: list.id,
        callbackURL: url,
        active: true,
        consecutiveFailures: 0,
        firstConsecutiveFailDate: null
      })
      const otherToken = yield* Effect.flip(run("customAction", { method: "GET", path: `/tokens/${"f".repeat(64)}/webhooks` }))
      expect(otherToken).toMatchObject({ _tag: "AuthenticationFailed", message: "invalid token" })

      for (const [s, receiving] of [[first, hooks], [second, other]] as const) {
        yield* executor.disableTrigger(trigger, s).pipe(provide)
        yield* receiving.close
      }
      expect(sim.webhooks.size).toBe(before)
    }))

  it.live("a second POST /webhooks with the same callback and model is Trello's 400; PUT /webhooks/{id} updates one", () =>
    Effect.gen(function*() {
      const list = [...sim.lists.values()][1]!
      const answering = createServer((_, res) => res.writeHead(200).end())
      yield* Effect.promise(() => new Promise<void>((resolve) => answering.listen(0, "127.0.0.1", resolve)))
      const url = `http://127.0.0.1:${(answering.address() as { port: number }).port}/hooks`
      const create = run("customAction", { method: "POST", path: "/webhooks", query: { callbackURL: url, idModel: list.id } })
      const created = ((yield* create) as { body: { id: string } }).body
      const duplicate = yield* Effect.flip(create)
      expect(duplicate).toMatchObject({ _tag: "InvalidInput", message: "A webhook with that callback, model, and token already exists" })
      // The same callback on another model is another webhook; moved onto the first's model, a duplicate.
      const board = sim.boards.get(list.idBoard)!
      const onBoard = ((yield* run("customAction", { method: "POST", path: "/webhooks", query: { callbackURL: url, idModel: board.id } })) as { body: { id: string } }).body
      const moved = yield* Effect.flip(run("customAction", { method: "PUT", path: `/webhooks/${onBoard.id}`, query: { idModel: list.id } }))
      expect(moved).toMatchObject({ _tag: "InvalidInput", message: "A webhook with that callback, model, and token already exists" })
      const off = yield* run("customAction", { method: "PUT", path: `/webhooks/${created.id}`, query: { active: false, description: "paused" } })
      expect(off).toMatchObject({ status: 200, body: { id: created.id, active: false, description: "paused" } })
      expect(sim.webhooks.get(created.id)).toMatchObject({ active: false, description: "paused" })
      const bad = yield* Effect.flip(run("customAction", { method: "PUT", path: `/webhooks/${created.id}`, query: { active: "maybe" } }))
      expect(bad).toMatchObject({ _tag: "InvalidInput", message: "invalid value for active" })
      for (const id of [created.id, onBoard.id]) yield* run("customAction", { method: "DELETE", path: `/webhooks/${id}` })
      yield* Effect.promise(() => new Promise((resolve) => answering.close(resolve)))
    }))

  it.live("deliveries are retried up to 3 times; a 410 deletes the webhook; a failing HEAD check fails enable", () =>
    Effect.gen(function*() {
      const board = [...sim.boards.values()][1]!
      const list = [...sim.lists.values()].find((l) => l.idBoard === board.id)!
      let state: unknown
      const trigger = { label: "New card", name: "newCard", type: "boardtool/v1/newCard", parameters: { idBoard: board.id } }
      // Two failures, then the trigger answers.
      const flaky = receiver(trigger, () => state, (n) => (n <= 2 ? 500 : undefined))
      state = yield* executor.enableTrigger(trigger, yield* flaky.start).pipe(provide)
      const webhookId = (state as { webhookId: string }).webhookId
      yield* run("createCard", { idList: list.id, name: "Retried" })
      yield* Effect.promise(() => sim.idle())
      expect(sim.deliveries.filter((d) => d.webhookId === webhookId).map((d) => d.status)).toEqual([500, 500, 200])
      expect(flaky.events).toHaveLength(1)
      yield* flaky.close

      const gone = receiver(trigger, () => state, () => 410)
      const goneState = yield* executor.enableTrigger(trigger, yield* gone.start).pipe(
        provide
      )
      yield* run("createCard", { idList: list.id, name: "Gone" })
      yield* Effect.promise(() => sim.idle())
      expect(sim.webhooks.has((goneState as { webhookId: string }).webhookId)).toBe(false)
      yield* gone.close

      const refusing = createServer((_, res) => res.writeHead(404).end())
      yield* Effect.promise(() => new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve)))
      const url = `http://127.0.0.1:${(refusing.address() as { port: number }).port}/hooks`
      const error = yield* Effect.flip(executor.enableTrigger(trigger, url).pipe(provide))
      expect(error).toMatchObject({ _tag: "InvalidInput", message: `URL (${url}) did not return 200 status code, got 404` })
      yield* Effect.promise(() => new Promise((resolve) => refusing.close(resolve)))
    }))

  it.live("a webhook whose deliveries keep failing is turned off; check says inactive; enable activates it again, and it delivers", () =>
    Effect.gen(function*() {
      const [list] = [...sim.lists.values()]
      let state: unknown
      const trigger = { label: "New card", name: "newCard", type: "boardtool/v1/newCard", parameters: { idList: list!.id } }
      // Every attempt of the first delivery fails (1 + 3 retries: as many as this simulator takes).
      const failing = receiver(trigger, () => state, (n) => (n <= 4 ? 500 : undefined))
      state = yield* executor.enableTrigger(trigger, yield* failing.start).pipe(provide)
      const webhookId = (state as { webhookId: string }).webhookId
      yield* run("createCard", { idList: list!.id, name: "Lost" })
      yield* Effect.promise(() => sim.idle())
      expect(sim.webhooks.get(webhookId)).toMatchObject({ active: false, consecutiveFailures: 4 })
      expect(yield* executor.checkTrigger(trigger, state).pipe(provide)).toEqual(Option.some("inactive"))
      // A card created while it is off is not delivered.
      yield* run("createCard", { idList: list!.id, name: "Unheard" })
      yield* Effect.promise(() => sim.idle())
      expect(sim.deliveries.filter((d) => d.webhookId === webhookId)).toHaveLength(4)
      // Enabled again: the same webhook, active, counting afresh.
      expect(yield* executor.enableTrigger(trigger, failing.url()).pipe(provide)).toEqual(state)
      expect(yield* executor.checkTrigger(trigger, state).pipe(provide)).toEqual(Option.some("active"))
      yield* run("createCard", { idList: list!.id, name: "Heard" })
      yield* Effect.promise(() => sim.idle())
      expect(failing.events.map((event) => (event.output as { name: string }).name)).toEqual(["Heard"])
      // What it missed, listed since before the first card: the three cards, oldest first.
      const missed = yield* executor.catchUp(trigger, new Date(Date.now() - 60_000)).pipe(provide)
      expect(Option.map(missed, (events) => events.map((event) => (event.output as { name: string }).name).slice(-3))).toEqual(Option.some(["Lost", "Unheard", "Heard"]))
      yield* run("customAction", { method: "DELETE", path: `/webhooks/${webhookId}` })
      expect(yield* executor.checkTrigger(trigger, state).pipe(provide)).toEqual(Option.some("gone"))
      yield* failing.close
    }))

  it.live("enforces Trello's rate limits with its 429 body", () =>
    Effect.gen(function*() {
      const limited = yield* Effect.promise(() =>
        Simulator.start({ rateLimits: { perToken: { limit: 3, intervalMs: 60_000 }, perKey: { limit: 10, intervalMs: 60_000 } } })
      )
      const get = () =>
        fetch(`${limited.baseUrl}/members/me/boards?key=${limited.key}&token=${limited.token}`).then(async (r) => ({
          status: r.status,
          body: await r.text(),
          remaining: r.headers.get("x-rate-limit-api-token-remaining")
        }))
      const answers = yield* Effect.promise(() => Promise.all([get(), get(), get(), get()]))
      expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 429])
      expect(JSON.parse(answers.find((a) => a.status === 429)!.body)).toEqual({
        error: "API_TOKEN_LIMIT_EXCEEDED",
        message: "Rate limit exceeded"
      })
      expect(limited.stats).toEqual({ requests: 4, rateLimited: 1 })
      yield* Effect.promise(() => limited.close())
    }))

  it.live("holds every answer for its latency, requests in flight side by side, each taking effect on arrival", () =>
    Effect.gen(function*() {
      yield* Effect.promise(() => expect(Simulator.start({ latencyMs: -1 })).rejects.toThrow(RangeError))
      const far = yield* Effect.acquireRelease(Effect.promise(() => Simulator.start({ latencyMs: 100 })), (s) => Effect.promise(() => s.close()))
      const timed = (path: string, init?: RequestInit) => {
        const started = performance.now()
        return fetch(`${far.baseUrl}${path}`, init).then(async (r) => ({ status: r.status, body: await r.text(), ms: performance.now() - started }))
      }
      const credentials = `key=${far.key}&token=${far.token}`
      // 20 at once: a reading, and a card created whose answer is held while the card already exists.
      const create = timed(`/cards?${credentials}&idList=${Simulator.seed.lists.roadmapToDo}&name=Far+away`, { method: "POST" })
      const reads = Array.from({ length: 18 }, () => timed(`/cards/${Simulator.seed.cards.launchPost}?${credentials}`))
      const refused = timed(`/cards/${Simulator.seed.cards.launchPost}?key=${far.key}&token=wrong`)
      let created = false
      void create.then(() => (created = true))
      // The card exists before its answer has come (the poll's short timer fires ahead of the answer's).
      while (![...far.cards.values()].some((card) => card.name === "Far away")) yield* Effect.promise(() => new Promise((r) => setTimeout(r, 5)))
      expect(created).toBe(false)
      const answers = yield* Effect.promise(() => Promise.all([create, ...reads, refused]))
      expect(answers.map((a) => a.status)).toEqual([200, ...reads.map(() => 200), 401])
      expect(far.stats.requests).toBe(20)
      // A lower bound only, which holds however slow the machine (a timer fires on the loop's
      // millisecond clock, so up to a millisecond before performance.now() says).
      for (const answer of answers) expect(answer.ms).toBeGreaterThanOrEqual(99)
    }).pipe(Effect.scoped))
})

describe("listBoardActions against the simulator", () => {
  // A simulator of its own: the board's history as seeded, whatever the tests above created.
  let sim: Simulator.Simulator
  beforeAll(async () => {
    sim = await Simulator.start()
  })
  afterAll(() => sim.close())
  const { run } = kit.connected(() => simulatorConnection(sim), UndiciHttpClient.layer)
  type Listed = { actions: Array<{ id: string; type: string; date: string; data: Record<string, unknown> }> }
  const list = (parameters: Record<string, unknown>) =>
    Effect.gen(function*() {
      const before = sim.stats.requests
      const result = (yield* run("listBoardActions", parameters)) as Listed
      return { actions: result.actions, requests: sim.stats.requests - before }
    })
  const { boards } = Simulator.seed
  // The Operations board: its createBoard, three createList, one createCard, its history, then Bob's addMemberToBoard.
  const operations = Simulator.seed.operationsHistory + 6

  it.live("a busy board's whole history, newest first, in pages of 1000 before the last id; caps stop at their page", () =>
    Effect.gen(function*() {
      const all = yield* list({ idBoard: boards.operations, limit: 5000 })
      expect(all.requests).toBe(2)
      expect(all.actions).toHaveLength(operations)
      expect(new Set(all.actions.map((a) => a.id)).size).toBe(operations)
      expect(all.actions.every((a, i) => i === 0 || a.id < all.actions[i - 1]!.id)).toBe(true)
      expect(all.actions[0]).toMatchObject({ type: "updateCard", date: "2026-02-19T23:00:00.000Z" })
      expect(all.actions.at(-1)).toMatchObject({ type: "createBoard", data: { board: { id: boards.operations, name: "Operations" } } })
      const capped = yield* list({ idBoard: boards.operations, limit: 1100 })
      expect([capped.actions.length, capped.requests]).toEqual([1100, 2])
      expect(capped.actions).toEqual(all.actions.slice(0, 1100))
      const onePage = yield* list({ idBoard: boards.operations, limit: 1000 })
      expect([onePage.actions.length, onePage.requests]).toEqual([1000, 1])
      const byDefault = yield* list({ idBoard: boards.operations })
      expect([byDefault.actions.length, byDefault.requests]).toEqual([50, 1])
    }))

  it.live("filter by type, since a date; a card created now is the newest action of its board", () =>
    Effect.gen(function*() {
      const comments = yield* list({ idBoard: boards.operations, filter: "commentCard", limit: 5000 })
      expect([comments.actions.length, comments.requests]).toEqual([800, 1])
      expect(comments.actions.every((a) => a.type === "commentCard")).toBe(true)
      const recent = yield* list({ idBoard: boards.operations, since: "2026-02-19T20:30:00Z", limit: 10 })
      expect(recent.actions.map((a) => a.date)).toEqual(["2026-02-19T23:00:00.000Z", "2026-02-19T22:00:00.000Z", "2026-02-19T21:00:00.000Z"])
      yield* run("createCard", { idList: Simulator.seed.lists.roadmapDone, name: "Paged streams" })
      const created = yield* list({ idBoard: boards.roadmap, filter: "createCard,createBoard" })
      expect(created.actions.map((a) => [a.type, (a.data["card"] as { name?: string } | undefined)?.name])).toEqual([
        ["createCard", "Paged streams"], ["createCard", "Fix the login redirect"], ["createCard", "Write the launch post"], ["createBoard", undefined]
      ])
    }))

  it.live("answers like Trello: newest first, limit at most 1000, before and since as ids or dates", () =>
    Effect.gen(function*() {
      const get = (query: string) =>
        Effect.promise(async () => {
          const response = await fetch(`${sim.baseUrl}/boards/${boards.operations}/actions?key=${sim.key}&token=${sim.token}&${query}`)
          return { status: response.status, body: response.headers.get("content-type")?.includes("json") ? await response.json() : await response.text() }
        })
      expect(yield* get("limit=1001")).toEqual({ status: 400, body: "invalid value for limit" })
      expect(yield* get("before=yesterday")).toEqual({ status: 400, body: "invalid value for before" })
      expect((yield* get("limit=0")).body).toEqual([])
      const first = (yield* get("limit=3")).body as Array<{ id: string; date: string }>
      const next = (yield* get(`limit=2&before=${first[2]!.id}`)).body as Array<{ id: string }>
      const byDate = (yield* get(`limit=2&before=${first[1]!.date}`)).body as Array<{ id: string }>
      const all = (yield* get("limit=6")).body as Array<{ id: string }>
      expect(next.map((a) => a.id)).toEqual(all.slice(3, 5).map((a) => a.id))
      expect(byDate.map((a) => a.id)).toEqual(all.slice(2, 4).map((a) => a.id))
      expect(((yield* get(`since=${first[2]!.id}`)).body as Array<{ id: string }>).map((a) => a.id)).toEqual(first.slice(0, 2).map((a) => a.id))
    }))
})
