/**
 * archiveAllCards end to end: the simulator's per-token rate limit, Trello's own or a lower one,
 * against the connection's limiter and retries.
 */
import { afterEach, describe, expect, it } from "@effect/vitest"
import { UndiciHttpClient } from "@x/http-undici"
import * as Effect from "effect/Effect"
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
 * records directly: creating them with requests would spend the token's budget under test.
 */
const simulatorWith = async (n: number, settings: Simulator.Settings = {}) => {
  sim = await Simulator.start(settings)
  const idList = Simulator.seed.lists.roadmapDoing
  for (let i = 0; i < n; i++) {
    const id = `61a0f0f0f0f0f0f0f0${i.toString(16).padStart(6, "0")}`
    sim.cards.set(id, {
      id, name: `Card ${i}`, desc: "", idBoard: Simulator.seed.boards.roadmap, idList, idShort: 100 + i, pos: (i + 1) * 16384,
      shortLink: `c${i}`, closed: false, dateLastActivity: new Date().toISOString(), due: null, start: null, dueComplete: false,
      idMembers: [], idLabels: [], idMembersVoted: []
    })
  }
  const open = () => [...sim!.cards.values()].filter((c) => c.idList === idList && !c.closed)
  const run = executor.run(step("archiveAllCards", { idList })).pipe(
    Effect.provide(connectedTo({ key: sim.key, token: sim.token, baseUrl: sim.baseUrl }, UndiciHttpClient.layer))
  ) as Effect.Effect<Archived, unknown>
  return { sim, open, run }
}

describe("archiveAllCards against the simulator", () => {
  it.live("under Trello's limit (100 per 10 s per token), 111 cards are all archived with (almost) no 429: the limiter holds the rest back", () =>
    Effect.gen(function*() {
      const { open, run, sim } = yield* Effect.promise(() => simulatorWith(110))
      const cards = open()
      expect(cards).toHaveLength(111)
      const started = Date.now()
      const output = yield* run
      // The list read and 99 PUTs start at once; the last 12 when the first tokens come back.
      expect(Date.now() - started).toBeGreaterThanOrEqual(10_000)
      // The limiter's window and the simulator's start a few ms apart (two clocks): on a loaded
      // machine one request may land just inside the simulator's old window and be retried.
      // Without the limiter, 12 of the 112 would be refused.
      expect(sim.stats.rateLimited).toBeLessThanOrEqual(2)
      expect(sim.stats.requests).toBe(112 + sim.stats.rateLimited)
      expect(output.archived).toBe(111)
      expect(output.failed).toBe(0)
      // In the list's order, each the card Trello answered.
      expect(output.results.map((r) => r.id)).toEqual(cards.map((c) => c.id))
      expect(output.results.every((r) => r.ok && r.output!.id === r.id)).toBe(true)
      expect(open()).toEqual([])
      expect(cards.every((c) => sim.cards.get(c.id)!.closed)).toBe(true)
    }), 40_000)

  it.live("under a lower limit than the connection declares, the 429s are retried and every card is archived", () =>
    Effect.gen(function*() {
      const { open, run, sim } = yield* Effect.promise(() =>
        simulatorWith(12, { rateLimits: { perToken: { limit: 8, intervalMs: 500 }, perKey: { limit: 300, intervalMs: 10_000 } } })
      )
      const output = yield* run
      expect(sim.stats.rateLimited).toBeGreaterThan(0)
      expect(sim.stats.requests).toBe(14 + sim.stats.rateLimited)
      expect(output).toMatchObject({ archived: 13, failed: 0 })
      expect(output.results.map((r) => r.ok)).toEqual(Array(13).fill(true))
      expect(open()).toEqual([])
    }), 20_000)
})
