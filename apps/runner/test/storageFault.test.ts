/**
 * A full disk under `serve`, injected while runs are under way, then freed: `Database.WriteFault`
 * refuses every transaction of the runs' writes in both threads as SQLite refuses the COMMIT of a
 * full disk (rolled back, `SQLITE_FULL`, a defect in `@effect/sql`), so all that follows takes the
 * path of a real one. While it lasts `/healthz` answers 503 "storage failing" and deliveries are
 * refused (503, not acknowledged); once writes succeed again, with no restart, every acknowledged
 * run and every redelivered one finishes, each step once: one copy of each card at the provider.
 * Before it, the same fault at the store (a refused write is a failure, health back only by a
 * probe write) and at the handoff to the engine (it pauses, and a refused write does not end it).
 *
 * `serve` runs in this process, from the build (`dist/`): its engine's thread is a worker that
 * loads `engine/EngineWorker.js`. Nothing here waits on the clock's speed: each phase
 * waits for a condition (the creates held at a proxy, a health answer, the runs' ends).
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as WorkflowEngine from "@effect/workflow/WorkflowEngine"
import * as TrelloSimulator from "@x/boardtool/testing"
import { Connections } from "@x/core"
import { UndiciHttpClient } from "@x/http-undici"
import * as Deferred from "effect/Deferred"
import * as Either from "effect/Either"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as FiberId from "effect/FiberId"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import * as Schedule from "effect/Schedule"
import { createServer, request, type Server } from "node:http"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Components from "../dist/components/Components.js"
import * as Database from "../dist/store/Database.js"
import * as Engine from "../dist/engine/Engine.js"
import { Output } from "../dist/Output.js"
import * as RunStore from "../dist/store/RunStore.js"
import * as Serve from "../dist/serve/Serve.js"
import * as WorkflowFiles from "../dist/workflow/WorkflowFiles.js"
import * as Deliveries from "./fixtures/deliveries.js"
import { freePort, runStatuses, runsOf, stallMs } from "./bin.js"
import * as TrelloDelivery from "./fixtures/trelloDelivery.js"


let sim: TrelloSimulator.Simulator
/** In front of the simulator: the copies' creates wait here while `holding`, so that runs are under way. */
let proxy: Server
let proxyBase: string
let holding = true
const held: Array<() => void> = []

beforeAll(async () => {
  sim = await TrelloSimulator.start({ key: "fault-key-0123456789", token: "fault-token-0123456789abcdef", rateLimits: false })
  const upstream = new URL(sim.baseUrl)
  proxy = createServer((req, res) => {
    const forward = () => {
      const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      })
      out.on("error", () => res.writeHead(502).end())
      req.pipe(out)
    }
    if (holding && req.method === "POST" && /^\/1\/cards(\?|$)/.test(req.url ?? "")) held.push(forward)
    else forward()
  })
  // As the simulator's (Loopback.listen) and a real provider's load balancer: Node's default of 5 s
  // closes an idle connection just as the runner's client sends on it, on a busy machine.
  proxy.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve))
  proxyBase = `http://127.0.0.1:${(proxy.address() as { port: number }).port}/1`
})
afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve))
  await sim.close()
})

const dir = mkdtempSync(join(tmpdir(), "x-runner-fault-"))
const workflowFile = Deliveries.copyCardsWorkflow(dir)

/** Trello's delivery of a card created in To Do, signed for the public URL; its answer's status. */
const deliver = (card: { readonly id: string; readonly name: string }, n: number, publicUrl: string) =>
  TrelloDelivery.deliver(sim.secret, TrelloDelivery.cardCreated({ ...card, idShort: n, shortLink: `f${n}` }, (0xfa0000 + n).toString(16).padStart(24, "0")), publicUrl)

/** Waits for a condition; the time limit only bounds a stall (generous: two busy cores, several suites at once). */
const waitUntil = async (what: string, done: () => boolean | Promise<boolean>, log: () => string, timeoutMs = stallMs) => {
  const deadline = Date.now() + timeoutMs
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; serve said:\n${log().slice(-4000)}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe("the runs' writes on a full disk", () => {
  it("a refused write is a failure (not a defect), and writes are refused until a probe write succeeds, reads notwithstanding", async () => {
    const fault = Database.writeFault()
    const stores = RunStore.layer.pipe(
      Layer.provideMerge(Database.layer({ _tag: "Embedded", dataDir: mkdtempSync(join(tmpdir(), "x-runner-fault-store-")) }, { writeFault: fault })),
      Layer.provide(NodeContext.layer)
    )
    await Effect.runPromise(Effect.gen(function*() {
      const store = yield* RunStore.RunStore
      const health = yield* Database.RunsHealth
      expect((yield* store.accept("copy-cards", { id: "e0", output: {} })).fresh).toBe(true)
      expect(yield* health.failing).toEqual(Option.none())

      fault.set(true)
      const refused = yield* Effect.either(store.accept("copy-cards", { id: "e1", output: {} }))
      expect(refused).toMatchObject({ _tag: "Left", left: { _tag: "StoreFailed" } })
      expect(Either.getLeft(refused).pipe(Option.getOrThrow).message).toBe("the runs could not be written: database or disk is full (SQLITE_FULL)")
      expect(yield* health.failing).toEqual(Option.some("database or disk is full (SQLITE_FULL)"))
      // Its probes are refused too; reads go on, and prove nothing.
      const probed = fault.refused()
      yield* Effect.repeat(Effect.sync(() => fault.refused()), { schedule: Schedule.spaced("10 millis"), until: (n) => n >= probed + 2 })
      expect(yield* store.unfinished).toBe(1)
      expect(Option.isSome(yield* health.failing)).toBe(true)

      fault.set(false)
      yield* health.writable
      expect(yield* health.failing).toEqual(Option.none())
      expect((yield* store.accept("copy-cards", { id: "e1", output: {} })).fresh).toBe(true)
      expect(yield* store.unfinished).toBe(2)
    }).pipe(Effect.scoped, Effect.provide(stores)))
  })
})

describe("the handoff on a full disk", () => {
  it("hands nothing over while writes are refused, and is not ended by a refused write: once they succeed, each waiting run is executed once", async () => {
    const fault = Database.writeFault()
    const stores = RunStore.layer.pipe(
      Layer.provideMerge(Database.layer({ _tag: "Embedded", dataDir: mkdtempSync(join(tmpdir(), "x-runner-fault-dispatch-")) }, { writeFault: fault })),
      Layer.provide(NodeContext.layer)
    )
    const executed = new Map<string, number>()
    await Effect.runPromise(Effect.gen(function*() {
      const store = yield* RunStore.RunStore
      // An engine whose every execution finishes its run at once.
      const engine = {
        execute: (_workflow: unknown, { payload }: { readonly payload: { readonly runId: string; readonly attempt: number } }) =>
          Effect.suspend(() => {
            executed.set(payload.runId, (executed.get(payload.runId) ?? 0) + 1)
            return store.runFinished(payload.runId, payload.attempt, "succeeded", undefined)
          }).pipe(Effect.orDie)
      } as unknown as WorkflowEngine.WorkflowEngine["Type"]
      const runs = yield* Effect.forEach(["e0", "e1", "e2"], (id) => store.accept("copy-cards", { id, output: {} }))
      fault.set(true)
      const wake = yield* Queue.sliding<void>(1)
      yield* Engine.handOff({ backlog: 8, local: true, wake, say: () => Effect.void, waiting: yield* Engine.makeWaiting, pollInterval: "20 millis" }).pipe(
        Effect.provideService(WorkflowEngine.WorkflowEngine, engine)
      )
      // Its handoff's write refused, then the probes: still nothing executed.
      yield* Effect.repeat(Effect.sync(() => fault.refused()), { schedule: Schedule.spaced("10 millis"), until: (n) => n >= 3 })
      expect(executed.size).toBe(0)

      fault.set(false)
      yield* Effect.repeat(store.unfinished, { schedule: Schedule.spaced("10 millis"), until: (n) => n === 0 })
      expect([...executed.entries()].sort()).toEqual(runs.map(({ runId }) => [runId, 1] as const).sort())
    }).pipe(Effect.scoped, Effect.provide(stores)))
  })
})

describe("the handoff at a stop", () => {
  it.effect("runs that wait (for a database that refuses writes) get stopGrace, then are left to resume: the stop is not held", () =>
    Effect.gen(function*() {
      let handed = false
      const store = {
        toHand: () => Effect.sync(() => handed ? [] : (handed = true, [{ runId: "r0", attempt: 0 }])),
        handed: () => Effect.void
      } as unknown as RunStore.RunStore
      const health = { failing: Effect.succeedNone, changes: Stream.empty, writable: Effect.void, refused: () => Effect.void }
      const started = yield* Deferred.make<void>()
      // An execution that never ends: a run waiting on its database.
      const engine = { execute: () => Effect.zipRight(Deferred.succeed(started, undefined), Effect.never) } as unknown as WorkflowEngine.WorkflowEngine["Type"]
      const scope = yield* Scope.make()
      const wake = yield* Queue.sliding<void>(1)
      yield* Engine.handOff({ backlog: 8, local: true, wake, say: () => Effect.void, waiting: yield* Engine.makeWaiting }).pipe(
        Effect.provideService(RunStore.RunStore, store),
        Effect.provideService(Database.RunsHealth, health),
        Effect.provideService(WorkflowEngine.WorkflowEngine, engine),
        Scope.extend(scope)
      )
      yield* Deferred.await(started)
      const stopping = yield* Effect.fork(Scope.close(scope, Exit.void))
      yield* TestClock.adjust(Engine.stopGrace)
      expect(Exit.isSuccess(yield* Fiber.await(stopping))).toBe(true)
    }))

  it.live("runs that wait (a delay) hold no place in the backlog: the next runs are handed over and started meanwhile", () =>
    Effect.gen(function*() {
      const waitingRuns = ["w0", "w1", "w2"]
      let next = 0
      const store = {
        toHand: (max: number) =>
          Effect.sync(() => Array.from({ length: Math.min(max, 5 - next) }, () => ({ runId: next < 3 ? waitingRuns[next++]! : `r${next++}`, attempt: 0 }))),
        handed: () => Effect.void
      } as unknown as RunStore.RunStore
      const health = { failing: Effect.succeedNone, changes: Stream.empty, writable: Effect.void, refused: () => Effect.void }
      const waiting = yield* Engine.makeWaiting
      const started: Array<string> = []
      const engine = {
        execute: (_workflow: unknown, { payload }: { readonly payload: { readonly runId: string } }) =>
          Effect.zipRight(
            Effect.sync(() => void started.push(payload.runId)),
            // The first three wait for ever (a long delay); the others run on.
            payload.runId.startsWith("w") ? waiting.around(Effect.never) : Effect.never
          )
      } as unknown as WorkflowEngine.WorkflowEngine["Type"]
      const wake = yield* Queue.sliding<void>(1)
      yield* Engine.handOff({ backlog: 2, local: true, wake, say: () => Effect.void, waiting, pollInterval: "20 millis" }).pipe(
        Effect.provideService(RunStore.RunStore, store),
        Effect.provideService(Database.RunsHealth, health),
        Effect.provideService(WorkflowEngine.WorkflowEngine, engine)
      )
      yield* Effect.repeat(Effect.sync(() => started.length), { schedule: Schedule.spaced("10 millis"), until: (n) => n >= 5 }).pipe(
        Effect.timeoutFail({ duration: "30 seconds", onTimeout: () => new Error(`started only ${started.join(", ")}`) })
      )
      // Three waiting, two running: the backlog of 2 counts only the two.
      expect(started).toEqual(["w0", "w1", "w2", "r3", "r4"])
      expect(waiting.size()).toBe(3)
    }).pipe(Effect.scoped))
})

describe("serve on a full disk", () => {
  it("answers 503 and refuses deliveries while writes fail, then finishes every acknowledged run once, with no restart", async () => {
    const before = await Deliveries.createCards(sim, "before", 6)
    const during = await Deliveries.createCards(sim, "during", 3)
    const port = await freePort()
    const publicUrl = `http://127.0.0.1:${port}/hooks/copy-cards`
    const dataDir = join(dir, "data")
    const fault = Database.writeFault()
    const lines: Array<string> = []
    const log = () => lines.join("\n")
    const connections = new Map([["boardtool", { key: sim.key, token: sim.token, secret: sim.secret, baseUrl: proxyBase }]])
    const ready = Deferred.unsafeMake<void>(FiberId.none)
    const program = Effect.gen(function*() {
      const workflow = yield* WorkflowFiles.loadWorkflow(workflowFile, new Map())
      return yield* Serve.serve({
        workflows: [{ name: "copy-cards", file: workflowFile, workflow, publicUrl: new URL(publicUrl) }],
        port,
        dataDir,
        inputs: new Map(),
        connections,
        rateLimits: false,
        version: "0.0.0",
        writeFault: fault,
        ready: Deferred.succeed(ready, undefined)
      })
    }).pipe(
      Effect.provide(Connections.layer(connections)),
      Effect.provide(Layer.mergeAll(
        Components.layer({ rateLimits: false }),
        Layer.succeed(Output, { out: (line) => Effect.sync(() => void lines.push(line)), err: (line) => Effect.sync(() => void lines.push(line)) }),
        NodeContext.layer,
        UndiciHttpClient.layer
      ))
    )
    const serving = Effect.runFork(program)
    const health = async () => {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`)
      return { code: response.status, status: (await response.json() as { status: string }).status }
    }
    try {
      await Effect.runPromise(Effect.raceFirst(Deferred.await(ready), Fiber.join(serving).pipe(Effect.orDie, Effect.asVoid)))
      expect(await health()).toEqual({ code: 200, status: "serving" })

      // Acknowledged, and under way: each run's create sent (its write marker committed) and held.
      for (const [n, card] of before.entries()) expect(await deliver(card, n, publicUrl)).toBe(200)
      await waitUntil(`${before.length} creates held`, () => held.length === before.length, log)

      // The disk fills: the creates reach the provider, and the runs' writes that follow are refused.
      fault.set(true)
      holding = false
      for (const forward of held.splice(0)) forward()
      await waitUntil("/healthz to say the storage fails", async () => (await health()).code === 503, log)
      expect(await health()).toEqual({ code: 503, status: "storage failing" })
      await waitUntil("the provider to have every copy", () => Deliveries.copies(sim, "before").size === before.length, log)
      // Refused, not acknowledged: the provider will deliver them again.
      for (const [n, card] of during.entries()) expect(await deliver(card, 100 + n, publicUrl)).toBe(503)
      // Full for a while: until writes were refused again and again (the runs' retries, the probes;
      // a count, not a time: about a second, past the dispatcher's poll).
      const refusedAtFirst = fault.refused()
      await waitUntil("writes refused again and again", () => fault.refused() >= refusedAtFirst + 10, log)

      // The disk is freed: no restart.
      fault.set(false)
      await waitUntil("/healthz to say serving again", async () => (await health()).code === 200, log)
      // The provider delivers again what was refused.
      for (const [n, card] of during.entries()) expect(await deliver(card, 100 + n, publicUrl)).toBe(200)
      const all = before.length + during.length
      await waitUntil(`${all} runs to succeed`, () => runStatuses(dataDir).filter((run) => run.status === "succeeded").length === all, log)

      const runs = await runsOf({ dataDir })
      expect(runs.length).toBe(all)
      expect(runs.map((run) => run.attempt)).toEqual(runs.map(() => 0))
      // Each step once: one copy of each card, no more.
      for (const prefix of ["before", "during"]) {
        expect([...Deliveries.copies(sim, prefix).values()]).toEqual((prefix === "before" ? before : during).map(() => 1))
      }
      expect(await health()).toEqual({ code: 200, status: "serving" })
      expect(log()).toContain("✘ the runs' database refuses writes (database or disk is full (SQLITE_FULL))")
      expect(log()).toContain("✔ the runs' database takes writes again")
    } finally {
      fault.set(false)
      const stopped = await Effect.runPromise(Fiber.interrupt(serving))
      expect(Exit.isInterrupted(stopped) || Exit.isSuccess(stopped)).toBe(true)
    }
  })
})
