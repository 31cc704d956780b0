/**
 * Rate limits hold inside parallel loops: `x-runner run` of a `forEach` over 200 items, 16
 * iterations at once, each creating a card with ONE token, against a Trello simulator
 * enforcing Trello's limits (100 requests per 10 s per token, 300 per key). The loop's
 * concurrent iterations take their tokens from their connection's one limiter, so the run
 * succeeds with every iteration, the simulator holds each card once, and at most 2 % of the
 * requests it received were answered 429 (counted there, as Trello would answer them).
 *
 * What is asserted is counts only, never the machine's speed. The limiter does not learn a
 * window from the provider's headers, so the run takes Trello's real interval: about 10 s (the
 * second hundred waits for the first hundred's tokens to come back).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as TrelloSimulator from "@x/boardtool/testing"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runner } from "./bin.js"

const { boards, lists } = TrelloSimulator.seed
const items = Array.from({ length: 200 }, (_, n) => `load ${String(n).padStart(3, "0")}`)

let sim: TrelloSimulator.Simulator
beforeAll(async () => {
  // Trello's limits (the simulator's default): 100 per 10 s per token, 300 per key.
  sim = await TrelloSimulator.start({ key: "loop-limits-key-0123456789", token: "loop-limits-token-0123456789abcdef" })
})
afterAll(() => sim.close())

const dir = mkdtempSync(join(tmpdir(), "x-runner-loop-limits-"))
const workflow = join(dir, "create-cards.json")
writeFileSync(workflow, JSON.stringify({
  label: "A card per item, 16 at once",
  inputs: { items },
  tasks: [{
    label: "Create a card per item",
    name: "created",
    forEach: "inputs.items",
    as: "item",
    concurrency: 16,
    tasks: [{ label: "Create the card", name: "card", type: "boardtool/v1/createCard", parameters: { idBoard: boards.roadmap, idList: lists.roadmapToDo, name: "${item}" } }]
  }]
}))

interface Result {
  readonly name: string
  readonly key?: string
  readonly status: string
  readonly output?: any
  readonly iterations?: ReadonlyArray<{ readonly index: number; readonly status: string; readonly tasks: ReadonlyArray<Result> }>
}

describe("x-runner run: a parallel loop keeps to its connection's rate limit", () => {
  it("200 card creations at concurrency 16 on one token: every iteration succeeds, each card exists once, at most 2 % of the requests answered 429", async () => {
    const { code, stdout, stderr } = await runner(["run", workflow, "--output", "json"], {
      XRUNNER_BOARDTOOL_KEY: sim.key,
      XRUNNER_BOARDTOOL_TOKEN: sim.token,
      XRUNNER_BOARDTOOL_BASE_URL: sim.baseUrl
    })
    expect(code, `${stderr}${stdout.slice(-2000)}`).toBe(0)
    const document = JSON.parse(stdout) as { readonly status: string; readonly steps: ReadonlyArray<Result> }
    expect(document.status).toBe("succeeded")
    const [loop] = document.steps
    expect(loop!.iterations!.map((iteration) => iteration.status)).toEqual(Array(200).fill("succeeded"))
    expect(loop!.output.map((iteration: any) => iteration.card.name)).toEqual(items)

    // At the provider: each item's card once, in the list the loop wrote to.
    const created = [...sim.cards.values()].filter((card) => card.idList === lists.roadmapToDo && card.name.startsWith("load "))
    expect(created.map((card) => card.name).sort()).toEqual(items)

    // Every request the simulator received (at least the 200 creates), at most 2 % answered 429.
    expect(sim.stats.requests).toBeGreaterThanOrEqual(200)
    expect(sim.stats.rateLimited, `${sim.stats.rateLimited} of ${sim.stats.requests} requests answered 429`).toBeLessThanOrEqual(sim.stats.requests * 0.02)
  })
})
