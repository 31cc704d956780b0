/**
 * Several runners on one PostgreSQL, through the CLI, under the faults a cluster meets: signed
 * Trello deliveries to two `serve`s (a load balancer's share, retried until acknowledged as
 * Trello retries), each run copying its card at a Trello simulator whose answers wait 50 ms (a
 * provider on the network, so runs are in flight when a fault strikes), which counts the copies:
 * the side effects. Which runner ran a run is read from the runners' own logs (`▶ event … (run
 * <id>)` as it starts, `■ event … (run <id>)` as it ends), nothing from the engine's tables. Each
 * scenario has a database of its own in one PostgreSQL.
 *
 * - PostgreSQL restarted mid-load: nothing acknowledged is lost or run twice, and both runners
 *   are healthy after (`/healthz`) and each runs some of the deliveries sent after.
 * - started at once: two runners started at the same instant on an empty database both come up
 *   (the schema created once), and the deliveries to both run once.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as TrelloSimulator from "@x/boardtool/testing"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type Postgres, startPostgres } from "../../../tooling/testing/postgres.mjs"
import { freePort, runsOf, served, type Served, stallMs } from "./bin.js"
import * as Deliveries from "./fixtures/deliveries.js"

let sim: TrelloSimulator.Simulator
let env: Record<string, string>
let postgres: Postgres
beforeAll(async () => {
  sim = await TrelloSimulator.start({ key: "cluster-key-0123456789", token: "cluster-token-0123456789abcdef", rateLimits: false, latencyMs: 50 })
  env = Deliveries.environment(sim)
  postgres = await startPostgres()
})
afterAll(async () => {
  await postgres?.stop()
  await sim?.close()
})

const dir = mkdtempSync(join(tmpdir(), "x-runner-cluster-"))
const workflow = Deliveries.copyCardsWorkflow(dir)

/** Runs a statement on a database, on a connection of its own. */
const query = <A extends object>(url: string, statement: (sql: PgClient.PgClient) => Effect.Effect<ReadonlyArray<A>, unknown>) =>
  Effect.runPromise(Effect.flatMap(PgClient.PgClient, statement).pipe(
    Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 }))
  ))

/** A new, empty database in the test's PostgreSQL: its URL. */
const freshDatabase = async (name: string) => {
  await query(postgres.url, (sql) => sql.unsafe(`CREATE DATABASE ${name}`))
  return postgres.url.replace(/\/[^/]+$/, `/${name}`)
}

/** The runs a runner's log says it started. */
const startedIn = (log: string) => new Set(Array.from(log.matchAll(/▶ event \S+ \(run ([^)\s]+)\)/g), (match) => match[1]!))

/** Starts `serve` on the database at this port (the deliveries' public URL is `publicUrl`, as behind a load balancer). */
const startRunner = (url: string, port: number, publicUrl: string, extraEnv: Record<string, string> = {}) =>
  served(["serve", workflow, "--public-url", publicUrl, "--port", String(port), "--database", url, "--data-dir", join(dir, `data-${port}`), "--without-rate-limits"], { ...env, ...extraEnv })

/** Two runners on `url`, started one after the other (or at once), both serving. */
const twoRunners = async (url: string, options: { readonly atOnce?: boolean; readonly envB?: Record<string, string> } = {}) => {
  const [portA, portB] = [await freePort(), await freePort()]
  const publicUrl = `http://127.0.0.1:${portA}/hooks/copy-cards`
  const a = startRunner(url, portA, publicUrl)
  if (options.atOnce !== true) await a.ready("● serving boardtool/v1/newCard")
  const b = startRunner(url, portB, publicUrl, options.envB)
  await Promise.all([a.ready("● serving boardtool/v1/newCard"), b.ready("● serving boardtool/v1/newCard")])
  return { a, b, portA, portB, publicUrl }
}

/** Stops runners still running: continued if stopped, then killed (a scenario that failed leaves none loading the next). */
const killAll = (runners: ReadonlyArray<Served>) =>
  Promise.all(runners.map((runner) => {
    if (runner.child.exitCode === null && runner.child.signalCode === null) {
      runner.child.kill("SIGCONT")
      runner.child.kill("SIGKILL")
    }
    return runner.exited
  }))

/** Stops runners as an operator does (`SIGTERM`), each ending its runs. */
const stopAll = (runners: ReadonlyArray<Served>) =>
  Promise.all(runners.map((runner) => {
    runner.child.kill("SIGTERM")
    return runner.exited
  }))

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Waits for `count` runs to succeed on `url`; a stall fails with the runs' statuses and the runners' logs' ends. */
const allSucceeded = async (url: string, count: number, runners: ReadonlyArray<Served>) => {
  const succeeded = Deliveries.succeededOn(url)
  await Deliveries.waitUntil(`${count} runs to succeed`, succeeded.count, count)
    .catch(async (error) => {
      const statuses = (await runsOf({ database: url })).reduce((counts, run) => ({ ...counts, [run.status]: (counts[run.status] ?? 0) + 1 }), {} as Record<string, number>)
      throw new Error(`${(error as Error).message}: ${JSON.stringify(statuses)}\n${runners.map((runner) => runner.log().slice(-2000)).join("\n---\n")}`)
    })
    .finally(succeeded.close)
}

/** Every delivery of these cards ran once, to success, and made one copy at the simulator: the runs. */
const eachRanOnce = async (url: string, prefix: string, count: number) => {
  const runs = await runsOf({ database: url })
  expect(runs.length).toBe(count)
  expect(new Set(runs.map((run) => run.event)).size).toBe(count)
  expect(runs.filter((run) => run.status !== "succeeded")).toEqual([])
  const made = Deliveries.copies(sim, prefix)
  expect([...made.entries()].filter(([, n]) => n !== 1), "cards created more than once").toEqual([])
  expect(made.size).toBe(count)
  return runs
}

/** A bound on a whole scenario: `waitUntil` and the runners' waits find a stall sooner. */
const scenarioMs = 600_000

describe("several runners on PostgreSQL", () => {
  it("PostgreSQL restarted mid-load: nothing acknowledged lost or run twice, both runners healthy and running deliveries after", async () => {
    const url = await freshDatabase("restarted")
    const cards = await Deliveries.createCards(sim, "restarted", 170)
    const { a, b, portA, portB, publicUrl } = await twoRunners(url)
    try {
      let acknowledged = 0
      // Restarted from the 50th acknowledgement on; the deliveries refused meanwhile are sent again.
      const restart = (async () => {
        while (acknowledged < 50) await sleep(10)
        await postgres.restart()
        return acknowledged
      })()
      await Deliveries.deliverAll(sim, cards.slice(0, 150), publicUrl, () => [portA, portB], (n) => void (acknowledged = n), { senders: 4, gapMs: 20 })
      // Mid-load: deliveries were still to come once it was back.
      expect(await restart).toBeLessThan(150)
      await allSucceeded(url, 150, [a, b])
      // Both healthy again, each then running some of 20 deliveries more (spread over the shards, or claimed by both).
      for (const port of [portA, portB]) {
        const givenUpAt = Date.now() + stallMs
        for (;;) {
          const answer = await fetch(`http://127.0.0.1:${port}/healthz`).then(async (response) => ({ code: response.status, body: await response.json() as { status: string } }), () => undefined)
          if (answer?.code === 200 && answer.body.status === "serving") break
          if (Date.now() > givenUpAt) throw new Error(`the runner at ${port} is not healthy: ${JSON.stringify(answer)}`)
          await sleep(250)
        }
      }
      const before = new Set((await runsOf({ database: url })).map((run) => run.id))
      await Deliveries.deliverAll(sim, cards.slice(150), publicUrl, () => [portA, portB], undefined, { offset: 150 })
      await allSucceeded(url, 170, [a, b])
      const runs = await eachRanOnce(url, "restarted", 170)
      const after = runs.filter((run) => !before.has(run.id)).map((run) => run.id)
      expect(after.length).toBe(20)
      const [onA, onB] = [startedIn(a.log()), startedIn(b.log())]
      expect(after.filter((id) => onA.has(id)).length, "runs after the restart on the first runner").toBeGreaterThan(0)
      expect(after.filter((id) => onB.has(id)).length, "runs after the restart on the second runner").toBeGreaterThan(0)
      await stopAll([a, b])
    } finally {
      await killAll([a, b])
    }
  }, scenarioMs)

  it("started at once: two runners started at the same instant on an empty database both serve, and the deliveries to both run once", async () => {
    const url = await freshDatabase("together")
    const cards = await Deliveries.createCards(sim, "together", 100)
    const { a, b, portA, portB, publicUrl } = await twoRunners(url, { atOnce: true })
    try {
      await Deliveries.deliverAll(sim, cards, publicUrl, () => [portA, portB])
      await allSucceeded(url, 100, [a, b])
      await eachRanOnce(url, "together", 100)
      await stopAll([a, b])
    } finally {
      await killAll([a, b])
    }
  }, scenarioMs)
})
