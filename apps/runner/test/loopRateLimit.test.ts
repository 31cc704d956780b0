/**
 * Rate limits hold inside parallel loops: `x-runner run` of a `forEach` over 200 items, 16
 * iterations at once, each creating a card with ONE token (and the same loop run by `serve`'s
 * durable engine on a new card, each iteration its own activity), against a Trello simulator
 * enforcing Trello's limits (100 requests per 10 s per token, 300 per key). The loop's
 * concurrent iterations take their tokens from their connection's one limiter, so the run
 * succeeds with every iteration, the simulator holds each card once, and at most 2 % of the
 * requests it received were answered 429 (counted there, as Trello would answer them).
 *
 * What is asserted is counts only, never the machine's speed. The limiter does not learn a
 * window from the provider's headers, so the runs take Trello's real interval: about 10 s for
 * `run` (the second hundred waits for the first hundred's tokens to come back), about 20 s for
 * `serve` (its webhook's and the trigger's few requests push the last creates into a third
 * window). Each has a simulator of its own: a window the other filled would be another
 * process's requests, which no runner can see.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as TrelloSimulator from "@x/boardtool/testing"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort, runner, runsOf, served } from "./bin.js"
import * as TrelloDelivery from "./fixtures/trelloDelivery.js"

const { boards, lists } = TrelloSimulator.seed

let sim: TrelloSimulator.Simulator
beforeAll(async () => {
  // Trello's limits (the simulator's default): 100 per 10 s per token, 300 per key.
  sim = await TrelloSimulator.start({ key: "loop-limits-key-0123456789", token: "loop-limits-token-0123456789abcdef" })
})
afterAll(() => sim.close())

const dir = mkdtempSync(join(tmpdir(), "x-runner-loop-limits-"))

/**
 * A loop creating a card per item in `idList`, 16 at once, its cards named `<prefix> 000` …
 * `<prefix> 199`; served on `trigger` when given.
 */
const loopFile = (file: string, prefix: string, idList: string, trigger?: unknown) => {
  const path = join(dir, file)
  writeFileSync(path, JSON.stringify({
    label: "A card per item, 16 at once",
    inputs: { items: namesOf(prefix) },
    ...(trigger === undefined ? {} : { triggers: [trigger] }),
    tasks: [{
      label: "Create a card per item",
      name: "created",
      forEach: "inputs.items",
      as: "item",
      concurrency: 16,
      tasks: [{ label: "Create the card", name: "card", type: "boardtool/v1/createCard", parameters: { idBoard: boards.roadmap, idList, name: "${item}" } }]
    }]
  }))
  return path
}
const namesOf = (prefix: string) => Array.from({ length: 200 }, (_, n) => `${prefix} ${String(n).padStart(3, "0")}`)
/** The names of the cards in a list that start with `<prefix> `, sorted. */
const cardsNamed = (simulator: TrelloSimulator.Simulator, idList: string, prefix: string) =>
  [...simulator.cards.values()].filter((card) => card.idList === idList && card.name.startsWith(`${prefix} `)).map((card) => card.name).sort()

interface Result {
  readonly name: string
  readonly key?: string
  readonly status: string
  readonly output?: any
  readonly iterations?: ReadonlyArray<{ readonly index: number; readonly status: string; readonly tasks: ReadonlyArray<Result> }>
}

describe("a parallel loop keeps to its connection's rate limit", () => {
  it("x-runner run: 200 card creations at concurrency 16 on one token: every iteration succeeds, each card exists once, at most 2 % of the requests answered 429", async () => {
    const workflow = loopFile("create-cards.json", "load", lists.roadmapToDo)
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
    expect(loop!.output.map((iteration: any) => iteration.card.name)).toEqual(namesOf("load"))

    // At the provider: each item's card once, in the list the loop wrote to.
    expect(cardsNamed(sim, lists.roadmapToDo, "load")).toEqual(namesOf("load"))

    // Every request the simulator received (at least the 200 creates), at most 2 % answered 429.
    expect(sim.stats.requests).toBeGreaterThanOrEqual(200)
    expect(sim.stats.rateLimited, `${sim.stats.rateLimited} of ${sim.stats.requests} requests answered 429`).toBeLessThanOrEqual(sim.stats.requests * 0.02)
  })

  it("x-runner serve: the same loop on a new card, each iteration an activity of the durable engine: every iteration succeeds, each card exists once, at most 2 % of the requests answered 429", async () => {
    const sim = await TrelloSimulator.start({ key: "served-limits-key-0123456789", token: "served-limits-token-0123456789abcdef" })
    // Served on a new card in To Do, its cards made in Doing (else each would be an event too).
    const workflow = loopFile("served-loop.json", "served", lists.roadmapDoing, { label: "A card in To Do", name: "go", type: "boardtool/v1/newCard", parameters: { idBoard: boards.roadmap, idList: lists.roadmapToDo } })
    const port = await freePort()
    const dataDir = join(dir, "served-data")
    const publicUrl = `http://127.0.0.1:${port}/hooks/served-loop`
    const server = served(["serve", workflow, "--public-url", publicUrl, "--port", String(port), "--data-dir", dataDir], {
      XRUNNER_BOARDTOOL_KEY: sim.key,
      XRUNNER_BOARDTOOL_TOKEN: sim.token,
      XRUNNER_BOARDTOOL_SECRET: sim.secret,
      XRUNNER_BOARDTOOL_BASE_URL: sim.baseUrl
    })
    try {
      await server.ready("● serving boardtool/v1/newCard")
      // Trello's delivery of the seeded card in To Do, signed: the test's own request (creating a
      // card) would count with the token's, outside the runner's limiter.
      const body = TrelloDelivery.cardCreated({ id: TrelloSimulator.seed.cards.launchPost, name: "Write the launch post", shortLink: "l1" }, "0000000000000000000e2001")
      expect(await TrelloDelivery.deliver(sim.secret, body, publicUrl)).toBe(200)
      await server.waitFor(/■ event \S+ (succeeded|failed)/)
      const [run] = await runsOf({ dataDir })
      expect(run!.status, server.log().slice(-3000)).toBe("succeeded")
      const shown = await runner(["runs", "show", run!.id, "--data-dir", dataDir, "--output", "json"])
      const steps = JSON.parse(shown.stdout).steps as ReadonlyArray<{ readonly path: string; readonly status: string }>
      const iterations = steps.filter((step) => /^created\[\d+\]\.card$/.test(step.path))
      expect(iterations.length).toBe(200)
      expect(iterations.every((step) => step.status === "succeeded")).toBe(true)
    } finally {
      server.child.kill("SIGTERM")
      await server.exited
      await sim.close()
    }
    expect(cardsNamed(sim, lists.roadmapDoing, "served")).toEqual(namesOf("served"))
    const { rateLimited, requests } = sim.stats
    expect(requests).toBeGreaterThanOrEqual(200)
    expect(rateLimited, `${rateLimited} of ${requests} requests answered 429`).toBeLessThanOrEqual(requests * 0.02)
  })
})
