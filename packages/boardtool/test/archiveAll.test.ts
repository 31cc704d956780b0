/**
 * archiveAllCards end to end: the simulator's per-token rate limit, Trello's own or a lower one,
 * against the connection's limiter and retries, on the test's clock (no count depends on speed).
 */
import { afterEach, describe, expect, it } from "@effect/vitest"
import { RateLimiter } from "@x/core"
import { UndiciHttpClient } from "@x/http-undici"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as TestClock from "effect/TestClock"
import * as Simulator from "../src/testing/simulator.js"
import { connectedTo, executor, step } from "./support.js"

type Archived = {
  archived: number
  failed: number
  results: Array<{ id: string; ok: boolean; output?: { id: string; name: string } }>
}

let sim: Simulator.Simulator | undefined
afterEach(async () => {
  await sim?.close()
  sim = undefined
})

/**
 * A simulator whose seeded "Doing" list of the Roadmap board (one card) holds `n` more cards, put in its
 * records directly: creating them with requests would spend the token's budget under test. Its rate
 * limits count by the test's clock, as the connection's limiter waits by it: the two agree however
 * slow the machine, and only the test moves time.
 */
const simulatorWith = (n: number, settings: Simulator.Settings = {}) =>
  Effect.gen(function*() {
    const clock = yield* Effect.clock
    const started = yield* Effect.promise(() => Simulator.start({ ...settings, now: () => clock.unsafeCurrentTimeMillis() }))
    sim = started
    const idList = Simulator.seed.lists.roadmapDoing
    for (let i = 0; i < n; i++) {
      const id = `61a0f0f0f0f0f0f0f0${i.toString(16).padStart(6, "0")}`
      started.cards.set(id, {
        id, name: `Card ${i}`, desc: "", idBoard: Simulator.seed.boards.roadmap, idList, idShort: 100 + i, pos: (i + 1) * 16384,
        shortLink: `c${i}`, closed: false, dateLastActivity: new Date().toISOString(), due: null, start: null, dueComplete: false,
        idMembers: [], idLabels: [], idMembersVoted: []
      })
    }
    const open = () => [...started.cards.values()].filter((c) => c.idList === idList && !c.closed)
    // A limiter of its own: the process's is shared by every test.
    const run = executor.run(step("archiveAllCards", { idList })).pipe(
      Effect.provide(connectedTo({ key: started.key, token: started.token, baseUrl: started.baseUrl }, UndiciHttpClient.layer)),
      Effect.provideService(RateLimiter.RateLimiters, RateLimiter.make())
    ) as Effect.Effect<Archived, unknown>
    return { sim: started, open, run }
  })

/** Real time passes, so that requests in flight are answered, while the test's clock stands still. */
const realPause = (millis: number) => Effect.promise(() => new Promise((resolve) => setTimeout(resolve, millis)))

/**
 * Moves the test's clock `step` at a time, letting requests in flight be answered in between,
 * until `fiber` ends. A pause of real time per step, so that a request would have to be in flight
 * for seconds before the clock passed its 30 s time limit.
 */
const runToEnd = <A, E>(fiber: Fiber.RuntimeFiber<A, E>, step: Duration.DurationInput) =>
  Effect.gen(function*() {
    for (;;) {
      yield* realPause(20)
      const exit = yield* Fiber.poll(fiber)
      if (exit._tag === "Some") return yield* exit.value
      yield* TestClock.adjust(step)
    }
  })

describe("archiveAllCards against the simulator", () => {
  it.effect("under Trello's limit (100 per 10 s per token), 111 cards are all archived with no 429: the limiter holds the last 12 back one interval", () =>
    Effect.gen(function*() {
      const { open, run, sim } = yield* simulatorWith(110)
      const cards = open()
      expect(cards).toHaveLength(111)
      const fiber = yield* Effect.fork(run)
      // The list read and 99 PUTs pass at the clock's first instant (5 at a time); no token comes
      // back while it stands still.
      while (sim.stats.requests < 100) yield* realPause(10)
      yield* realPause(250)
      expect(sim.stats.requests).toBe(100)
      // Not one more until the first tokens come back, one interval (and core's few ms of
      // margin) after their answers at the clock's first instant.
      yield* TestClock.adjust(`${10_000 + RateLimiter.marginMillis - 1} millis`)
      yield* realPause(250)
      expect(sim.stats.requests).toBe(100)
      // Then the last 12, at that instant: the clock stands still while they go.
      yield* TestClock.adjust("1 milli")
      const output = yield* Fiber.join(fiber)
      expect(sim.stats.rateLimited).toBe(0)
      expect(sim.stats.requests).toBe(112)
      expect(output.archived).toBe(111)
      expect(output.failed).toBe(0)
      // In the list's order, each the card Trello answered.
      expect(output.results.map((r) => r.id)).toEqual(cards.map((c) => c.id))
      expect(output.results.every((r) => r.ok && r.output!.id === r.id)).toBe(true)
      expect(open()).toEqual([])
      expect(cards.every((c) => sim.cards.get(c.id)!.closed)).toBe(true)
    }))

  it.effect("under a lower limit than the connection declares, the 429s are retried and every card is archived", () =>
    Effect.gen(function*() {
      const { open, run, sim } = yield* simulatorWith(12, {
        rateLimits: { perToken: { limit: 8, intervalMs: 500 }, perKey: { limit: 300, intervalMs: 10_000 } }
      })
      const fiber = yield* Effect.fork(run)
      // While the clock stands still: the list read and 7 PUTs pass, the next 5 (as many as run at
      // once) are answered 429 and wait to retry.
      while (sim.stats.requests < 13) yield* realPause(10)
      expect(sim.stats.rateLimited).toBe(5)
      const output = yield* runToEnd(fiber, "50 millis")
      expect(sim.stats.rateLimited).toBeGreaterThanOrEqual(5)
      expect(sim.stats.requests).toBe(14 + sim.stats.rateLimited)
      expect(output).toMatchObject({ archived: 13, failed: 0 })
      expect(output.results.map((r) => r.ok)).toEqual(Array(13).fill(true))
      expect(open()).toEqual([])
    }))
})
