/**
 * The embedded engine under `kill -9`: 300 signed Trello deliveries to `serve` on the embedded
 * SQLite default, the runner killed in the middle and started again. Every acknowledged delivery
 * becomes one run that ends succeeded, and no step with a recorded result runs again: each
 * event's card is created exactly once at the provider (a create cut short by the kill is found
 * again by its action's reconciliation, not sent twice). A delivery the dead runner did not
 * acknowledge is sent again, as Trello does. Several runners on PostgreSQL, killed, stalled and
 * restarted: clusterRunners.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as TrelloSimulator from "@x/boardtool/testing"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort, runStatuses, runsOf, served, type Served } from "./bin.js"
import * as Deliveries from "./fixtures/deliveries.js"

let sim: TrelloSimulator.Simulator
let env: Record<string, string>
beforeAll(async () => {
  sim = await TrelloSimulator.start({ key: "durable-key-0123456789", token: "durable-token-0123456789abcdef", rateLimits: false })
  env = Deliveries.environment(sim)
})
afterAll(() => sim.close())

const dir = mkdtempSync(join(tmpdir(), "x-runner-durable-"))
const workflow = Deliveries.copyCardsWorkflow(dir)

/** 150 s alone: five times that, as a bound on the whole; `waitUntil` finds a stall sooner. */
const wholeTestMs = 900_000

describe("the durable engine, killed -9", () => {
  it("embedded: 300 deliveries, the runner killed in the middle and started again: each runs once to its end, no create twice", async () => {
    const cards = await Deliveries.createCards(sim, "embedded", 300)
    const port = await freePort()
    const publicUrl = `http://127.0.0.1:${port}/hooks/copy-cards`
    const dataDir = join(dir, "embedded")
    const start = () => served(["serve", workflow, "--public-url", publicUrl, "--port", String(port), "--data-dir", dataDir, "--without-rate-limits"], env)
    let runner: Served = start()
    await runner.waitFor("● serving boardtool/v1/newCard")
    let up = true
    let restarted: Promise<void> | undefined
    await Deliveries.deliverAll(sim, cards, publicUrl, () => up ? [port] : [], (acknowledged) => {
      if (acknowledged !== 120) return
      // In the middle: runs in the engine, some steps in flight.
      up = false
      runner.child.kill("SIGKILL")
      restarted = runner.exited.then(async () => {
        runner = start()
        await runner.waitFor("● serving boardtool/v1/newCard")
        up = true
      })
    })
    await restarted
    await Deliveries.waitUntil("300 runs to end", async () => runStatuses(dataDir).filter((run) => run.status === "succeeded").length, 300).catch(async (error) => {
      const statuses = (await runsOf({ dataDir })).reduce((counts, run) => ({ ...counts, [run.status]: (counts[run.status] ?? 0) + 1 }), {} as Record<string, number>)
      throw new Error(`${(error as Error).message}: ${JSON.stringify(statuses)}\n${runner.log().slice(-3000)}`)
    })
    const runs = await runsOf({ dataDir })
    expect(runs.length).toBe(300)
    expect(new Set(runs.map((run) => run.event)).size).toBe(300)
    expect(runs.filter((run) => run.status !== "succeeded")).toEqual([])
    // Exactly one copy of each event at the provider: no create ran twice.
    const made = Deliveries.copies(sim, "embedded")
    expect(made.size).toBe(300)
    expect([...made.values()].filter((n) => n !== 1)).toEqual([])
    // The restarted runner resumed the runs the kill cut short (their creates in flight found again, not sent twice).
    expect(runner.log()).toMatch(/↻ \d+ runs? accepted before a stop and not finished/)
    runner.child.kill("SIGTERM")
    await runner.exited
  }, wholeTestMs)
})
