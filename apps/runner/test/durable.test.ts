/**
 * The durable engine under `kill -9`: 300 signed Trello deliveries to `serve`, a runner killed
 * in the middle: on the embedded SQLite default, started again; on PostgreSQL, one of two
 * runners, the other taking its runs over. Every acknowledged delivery becomes one run that ends
 * succeeded, and no step with a recorded result runs again: each event's card is created
 * exactly once at the provider (a create cut short by the kill is found again by its action's
 * reconciliation, not sent twice). A delivery the dead runner did not acknowledge is sent
 * again, as Trello does.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as TrelloSimulator from "@x/boardtool/testing"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Redacted from "effect/Redacted"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startPostgres } from "../../../tooling/testing/postgres.mjs"
import { freePort, runStatuses, runsOf, served, type Served, stallMs } from "./bin.js"
import * as TrelloDelivery from "./fixtures/trelloDelivery.js"

const { boards, lists } = TrelloSimulator.seed

let sim: TrelloSimulator.Simulator
let env: Record<string, string>
beforeAll(async () => {
  sim = await TrelloSimulator.start({ key: "durable-key-0123456789", token: "durable-token-0123456789abcdef", rateLimits: false })
  env = { XRUNNER_BOARDTOOL_KEY: sim.key, XRUNNER_BOARDTOOL_TOKEN: sim.token, XRUNNER_BOARDTOOL_SECRET: sim.secret, XRUNNER_BOARDTOOL_BASE_URL: sim.baseUrl }
})
afterAll(() => sim.close())

const dir = mkdtempSync(join(tmpdir(), "x-runner-durable-"))
/** For each new card in To Do: a copy in Done (a create), then that copy read back (a read). */
const workflow = join(dir, "copy-cards.json")
writeFileSync(workflow, JSON.stringify({
  label: "Copy every new card to Done",
  triggers: [{ label: "A card in To Do", name: "created", type: "boardtool/v1/newCard", parameters: { idBoard: boards.roadmap, idList: lists.roadmapToDo } }],
  tasks: [
    { label: "Copy it", name: "copy", type: "boardtool/v1/createCard", parameters: { idList: lists.roadmapDone, name: "copy of ${trigger.name}" } },
    { label: "Read the copy", name: "check", type: "boardtool/v1/getCard", parameters: { id: "${copy.id}" } }
  ]
}))

const authorization = () => `OAuth oauth_consumer_key="${sim.key}", oauth_token="${sim.token}"`

/** Cards in To Do, created before any webhook exists (the trigger reads each delivered card back). */
const createCards = async (prefix: string, count: number) => {
  const ids: Array<string> = []
  for (let n = 0; n < count; n++) {
    const response = await fetch(`${sim.baseUrl}/cards?idList=${lists.roadmapToDo}&name=${encodeURIComponent(`${prefix} ${n}`)}`, {
      method: "POST",
      headers: { authorization: authorization() }
    })
    ids.push((await response.json() as { id: string }).id)
  }
  return ids
}

/** Trello's delivery of a card created in To Do, signed for the public URL. */
const delivery = (card: { readonly id: string; readonly name: string }, n: number, publicUrl: string) => {
  const actionId = (0xd00000 + n).toString(16).padStart(24, "0")
  const body = TrelloDelivery.cardCreated({ ...card, idShort: n, shortLink: `s${n}` }, actionId)
  return { actionId, body, signature: TrelloDelivery.signature(sim.secret, body, publicUrl) }
}

/**
 * Sends every delivery until it is acknowledged (2xx), `concurrency` at a time, to the ports given
 * in turn (a load balancer), retrying one that failed as Trello retries; `onAcknowledged` is told
 * the count as it grows.
 */
const deliverAll = async (
  cards: ReadonlyArray<{ readonly id: string; readonly name: string }>,
  publicUrl: string,
  ports: () => ReadonlyArray<number>,
  onAcknowledged: (acknowledged: number) => void | Promise<void>
) => {
  const count = cards.length
  let next = 0
  let acknowledged = 0
  const path = new URL(publicUrl).pathname
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (next < count) {
      const n = next++
      const { body, signature } = delivery(cards[n]!, n, publicUrl)
      const givenUpAt = Date.now() + stallMs
      for (let attempt = 0;; attempt++) {
        const targets = ports()
        const port = targets[(n + attempt) % targets.length]!
        const answered = await fetch(`http://127.0.0.1:${port}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-trello-webhook": signature },
          body
        }).then((response) => response.status, () => 0)
        if (answered >= 200 && answered < 300) break
        if (Date.now() > givenUpAt) throw new Error(`delivery ${n} was never acknowledged (last answer ${answered})`)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      await onAcknowledged(++acknowledged)
    }
  }))
}

/** The copies created at the provider of the cards named with this prefix, by name. */
const copies = (prefix: string) => {
  const byName = new Map<string, number>()
  for (const card of sim.cards.values()) {
    if (card.idList === lists.roadmapDone && card.name.startsWith(`copy of ${prefix} `)) byName.set(card.name, (byName.get(card.name) ?? 0) + 1)
  }
  return byName
}

/** The unfinished runs a runner holds, read from the database. */
const unfinishedClaimedBy = (url: string, runner: string) =>
  Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const sql = yield* Effect.provide(PgClient.PgClient, yield* Layer.build(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })))
    const rows = yield* sql<{ id: string }>`SELECT id FROM xr_runs WHERE lease_owner = ${runner} AND status IN ('accepted', 'running')`
    return rows.map((row) => row.id)
  })))

/** How many runs have succeeded, read from the database on one connection (cheaper to repeat than `runsOf`'s process). */
const succeededOn = (url: string) => {
  const database = ManagedRuntime.make(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 }))
  const count = () =>
    database.runPromise(Effect.flatMap(PgClient.PgClient, (sql) => sql<{ count: string | number }>`SELECT COUNT(*) AS count FROM xr_runs WHERE status = 'succeeded'`))
      .then((rows) => Number(rows[0]!.count))
  return { count, close: () => database.dispose() }
}

/** When a runner last heartbeat, read from the database (a runner killed -9 never deletes its row). */
const lastHeartbeatOf = (url: string, runner: string) =>
  Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const sql = yield* Effect.provide(PgClient.PgClient, yield* Layer.build(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })))
    const rows = yield* sql<{ seen_at: string | number }>`SELECT seen_at FROM xr_runners WHERE id = ${runner}`
    return Number(rows[0]!.seen_at)
  })))

/** How long a runner's runs stay its own after its last heartbeat (the runner's `heartbeatEvery` × 3). */
const lease = 6_000

/**
 * Waits until `succeeded` reaches `target`, for as long as it keeps growing: only a stall (no run
 * ended for `stallMs`) fails, however slowly a busy machine works through them.
 */
const waitUntil = async (what: string, succeeded: () => Promise<number>, target: number) => {
  let last = -1
  let progressedAt = Date.now()
  for (;;) {
    const now = await succeeded()
    if (now >= target) return
    if (now > last) [last, progressedAt] = [now, Date.now()]
    if (Date.now() - progressedAt > stallMs) throw new Error(`timed out waiting for ${what} (none ended for ${stallMs / 1000} s)`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/** 150 s alone for the embedded case: five times that, as a bound on the whole; `waitUntil` finds a stall sooner. */
const wholeTestMs = 900_000

describe("the durable engine, killed -9", () => {
  it("embedded: 300 deliveries, the runner killed in the middle and started again: each runs once to its end, no create twice", async () => {
    const names = await createCards("embedded", 300)
    const cards = names.map((id, n) => ({ id, name: `embedded ${n}` }))
    const port = await freePort()
    const publicUrl = `http://127.0.0.1:${port}/hooks/copy-cards`
    const dataDir = join(dir, "embedded")
    const start = () => served(["serve", workflow, "--public-url", publicUrl, "--port", String(port), "--data-dir", dataDir, "--without-rate-limits"], env)
    let runner: Served = start()
    await runner.waitFor("● serving boardtool/v1/newCard")
    let up = true
    let restarted: Promise<void> | undefined
    await deliverAll(cards, publicUrl, () => up ? [port] : [], (acknowledged) => {
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
    await waitUntil("300 runs to end", async () => runStatuses(dataDir).filter((run) => run.status === "succeeded").length, 300).catch(async (error) => {
      const statuses = (await runsOf({ dataDir })).reduce((counts, run) => ({ ...counts, [run.status]: (counts[run.status] ?? 0) + 1 }), {} as Record<string, number>)
      throw new Error(`${(error as Error).message}: ${JSON.stringify(statuses)}\n${runner.log().slice(-3000)}`)
    })
    const runs = await runsOf({ dataDir })
    expect(runs.length).toBe(300)
    expect(new Set(runs.map((run) => run.event)).size).toBe(300)
    expect(runs.filter((run) => run.status !== "succeeded")).toEqual([])
    // Exactly one copy of each event at the provider: no create ran twice.
    const made = copies("embedded")
    expect(made.size).toBe(300)
    expect([...made.values()].filter((n) => n !== 1)).toEqual([])
    // The restarted runner resumed the runs the kill cut short (their creates in flight found again, not sent twice).
    expect(runner.log()).toMatch(/↻ \d+ runs? accepted before a stop and not finished/)
    runner.child.kill("SIGTERM")
    await runner.exited
  }, wholeTestMs)

  it("PostgreSQL: 300 deliveries spread over two runners, one killed: the other takes its runs over, each runs once, no create twice", async () => {
    const postgres = await startPostgres()
    try {
      const ids = await createCards("cluster", 300)
      const cards = ids.map((id, n) => ({ id, name: `cluster ${n}` }))
      const [portA, portB] = [await freePort(), await freePort()]
      // Behind a load balancer both have the public URL; here it is the first runner's.
      const publicUrl = `http://127.0.0.1:${portA}/hooks/copy-cards`
      const start = (port: number) =>
        served(["serve", workflow, "--public-url", publicUrl, "--port", String(port), "--database", postgres.url, "--data-dir", join(dir, `pg-${port}`), "--without-rate-limits"], env)
      const a = start(portA)
      await a.waitFor("● serving boardtool/v1/newCard")
      const b = start(portB)
      await b.waitFor("● serving boardtool/v1/newCard")
      const runnerA = /● runner (\S+) at/.exec(a.log())![1]!
      const where = { database: postgres.url }
      let ports = [portA, portB]
      let killedAt = 0
      let cutShort: ReadonlyArray<string> = []
      let probing = false
      // From the 120th acknowledgement on, the first runner is stopped (SIGSTOP: it can change
      // nothing) and the runs it has claimed and not finished are read; it is killed once it holds
      // some, and let go on otherwise (a fast runner may be between runs). So the takeover below
      // always has runs to take, however the machine's load shares the time between the sides;
      // they are read before the dead runner's lease runs out (the survivor takes them then).
      await deliverAll(cards, publicUrl, () => ports, async (acknowledged) => {
        if (acknowledged < 120 || killedAt > 0 || probing) return
        probing = true
        const stoppedAt = Date.now()
        a.child.kill("SIGSTOP")
        const held = await unfinishedClaimedBy(postgres.url, runnerA)
        if (held.length > 0) {
          ports = [portB]
          killedAt = stoppedAt
          cutShort = held
          a.child.kill("SIGKILL")
        } else {
          a.child.kill("SIGCONT")
        }
        probing = false
      })
      expect(killedAt, "the first runner never held an unfinished run after the 120th delivery").toBeGreaterThan(0)
      const succeeded = succeededOn(postgres.url)
      await waitUntil("300 runs to end on the survivor", succeeded.count, 300)
        .catch(async (error) => {
          const statuses = (await runsOf(where)).reduce((counts, run) => ({ ...counts, [run.status]: (counts[run.status] ?? 0) + 1 }), {} as Record<string, number>)
          throw new Error(`${(error as Error).message}: ${JSON.stringify(statuses)}\n${b.log().slice(-3000)}`)
        })
        .finally(succeeded.close)
      const runs = await runsOf(where)
      expect(runs.length).toBe(300)
      expect(new Set(runs.map((run) => run.event)).size).toBe(300)
      expect(runs.filter((run) => run.status !== "succeeded")).toEqual([])
      const made = copies("cluster")
      expect(made.size).toBe(300)
      expect([...made.values()].filter((n) => n !== 1)).toEqual([])
      // The dead runner's runs cut short: the survivor took them over, only once the dead one's
      // lease had run out (a slower machine only makes that later), and promptly: measured from
      // then, ending them took at most two leases more than the longest wait of a run accepted
      // after the kill (it claims the oldest runs first, so its own runs do not go ahead of
      // them). Both sides slow down alike on a busy machine; a takeover that waited for
      // something else (the dead runner's return, a restart) would not fit.
      const dead = new Set(cutShort)
      expect(dead.size).toBeGreaterThan(0)
      const taken = runs.filter((run) => dead.has(run.id))
      expect(taken.every((run) => run.runner !== runnerA)).toBe(true)
      const expired = (await lastHeartbeatOf(postgres.url, runnerA)) + lease
      expect(Math.min(...taken.map((run) => run.finishedAt!))).toBeGreaterThan(expired)
      const longestWait = Math.max(...runs.filter((run) => run.acceptedAt > killedAt).map((run) => run.finishedAt! - run.acceptedAt))
      expect(Math.max(...taken.map((run) => run.finishedAt!)) - expired).toBeLessThan(longestWait + 2 * lease)
      b.child.kill("SIGTERM")
      await b.waitFor("■ trigger disabled")
      await b.exited
    } finally {
      await postgres.stop()
    }
  }, wholeTestMs)
})
