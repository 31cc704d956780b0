/**
 * The task tree under `serve`, durably: a 100-item loop whose runner is killed (-9) in the
 * middle, then started again, writes each item once; a 10-second `delay` interrupted at 5 s
 * by a stop ends 5 s after the restart, not 10; an `onFailure` path comments once, however
 * often its event is delivered again and its runner killed (after its run, and while its
 * comment is in flight); `runs retry` of a run whose loop failed at one iteration sends that
 * iteration again and none of the others.
 *
 * The delay runs in this process on the engine's layers, driven by `TestClock`; the others run
 * the bin against a Trello simulator behind a proxy, which counts, holds or fails requests so
 * that each kill happens at a known point (no wait depends on the machine's speed).
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as WorkflowEngine from "@effect/workflow/WorkflowEngine"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as TrelloSimulator from "@x/boardtool/testing"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Scope from "effect/Scope"
import * as TestClock from "effect/TestClock"
import { createHmac } from "node:crypto"
import { mkdtempSync, writeFileSync } from "node:fs"
import { createServer, request, type Server } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Components from "../src/components/Components.js"
import * as Database from "../src/store/Database.js"
import * as Engine from "../src/engine/Engine.js"
import * as RunStore from "../src/store/RunStore.js"
import * as SqlWorkflowEngine from "../src/store/SqlWorkflowEngine.js"
import * as Workflow from "../src/workflow/Workflow.js"
import { freePort, runner, runStatuses, served, type Served, stallMs } from "./bin.js"

const dir = mkdtempSync(join(tmpdir(), "x-runner-durable-tree-"))

/** Waits (in real time) for a condition; the bound only finds a stall. */
const waitUntil = async (what: string, done: () => boolean | Promise<boolean>, log: () => string = () => "") => {
  const deadline = Date.now() + stallMs
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${log().slice(-4000)}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe("a delay across a restart", () => {
  /** A run that waits 10 seconds, then ends. */
  const workflow = Either.getOrThrowWith(
    Workflow.parse(
      JSON.stringify({ label: "Wait ten seconds", tasks: [{ label: "Wait", name: "pause", delay: "10 seconds" }] }),
      new Map(),
      Components.make([], { rateLimits: false }).executor
    ),
    (issues) => new Error(JSON.stringify(issues))
  )
  const started = Date.parse("2026-11-27T00:00:00.000Z")

  /** The engine of a runner on the data directory, built in `scope`: its store, and its engine with the run workflow registered. */
  const engineOn = (dataDir: string, runnerId: string, scope: Scope.Scope, stopping: { stopped: boolean }) =>
    Effect.gen(function*() {
      const waiting = yield* Engine.makeWaiting
      const runs: Engine.Runs = {
        runner: runnerId,
        workflows: new Map([["pause", workflow]]),
        executor: Components.make([], { rateLimits: false }).executor,
        concurrency: 1,
        say: () => Effect.void,
        stopping: () => stopping.stopped,
        waiting
      }
      const layer = Engine.runsLayer(runs).pipe(
        Layer.provideMerge(SqlWorkflowEngine.layer),
        Layer.provideMerge(RunStore.layer),
        Layer.provideMerge(Database.layer({ _tag: "Embedded", dataDir })),
        Layer.provide(NodeContext.layer)
      )
      return { context: yield* Layer.buildWithScope(layer, scope), waiting }
    })

  /**
   * Waits in real time (the test's clock stands still) until the runner's run waits, asleep on the
   * test clock until `at` (an interrupted sleep may stay in the clock's list: the runner's count
   * of its waiting runs says this one's has begun).
   */
  const asleepUntil = (waiting: Engine.Waiting, at: number) =>
    Effect.gen(function*() {
      const deadline = Date.now() + stallMs
      while (waiting.size() !== 1 || !Chunk.toReadonlyArray(yield* TestClock.sleeps()).includes(at)) {
        if (Date.now() > deadline) return yield* Effect.dieMessage(`no wait until ${new Date(at).toISOString()}: ${Chunk.toReadonlyArray(yield* TestClock.sleeps()).map((t) => new Date(t).toISOString())}`)
        yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))
      }
    })

  it.effect("a 10-second delay stopped at 5 s ends 5 s after the restart: the time it waits until is the first start's + 10 s", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(started)
      const dataDir = mkdtempSync(join(dir, "delay-"))
      const until = started + 10_000

      // The first runner: the run starts, its wait journals the time it waits until, and sleeps.
      const first = yield* Scope.make()
      const firstStopping = { stopped: false }
      const { context: engine, waiting } = yield* engineOn(dataDir, "runner-a", first, firstStopping)
      const store = RunStore.RunStore.pipe(Effect.provide(engine))
      const { runId } = yield* Effect.flatMap(store, (s) => s.accept("pause", { id: "e-delay", output: {} }))
      expect(yield* Effect.flatMap(store, (s) => s.claim("runner-a", 8, "all others"))).toEqual([{ runId, attempt: 0 }])
      const execute = (context: typeof engine) =>
        Effect.forkDaemon(Effect.provide(
          Effect.flatMap(WorkflowEngine.WorkflowEngine, (e) => e.execute(Engine.RunWorkflow, { executionId: `${runId}/0`, payload: { runId, attempt: 0 } })),
          context
        ))
      yield* execute(engine)
      yield* asleepUntil(waiting, until)
      yield* TestClock.adjust("5 seconds")
      const show = (context: typeof engine) => Effect.flatMap(Effect.provide(RunStore.RunStore, context), (s) => Effect.map(s.show(runId), Option.getOrThrow))
      expect((yield* show(engine)).run.status).toBe("running")

      // Stopped at 5 s (its execution interrupted: it resumes from its journal).
      firstStopping.stopped = true
      yield* Scope.close(first, Exit.void)

      // Another runner on the same database takes the run up: it waits only what remains.
      const second = yield* Scope.make()
      const { context: resumed, waiting: waitingAgain } = yield* engineOn(dataDir, "runner-b", second, { stopped: false })
      expect(yield* Effect.flatMap(Effect.provide(RunStore.RunStore, resumed), (s) => s.claim("runner-b", 8, "all others"))).toEqual([{ runId, attempt: 0 }])
      const execution = yield* execute(resumed)
      // Asleep until the first start + 10 s (recomputed, the wait would sleep until the restart + 10 s).
      yield* asleepUntil(waitingAgain, until)
      expect(Chunk.toReadonlyArray(yield* TestClock.sleeps())).not.toContain(started + 15_000)
      yield* TestClock.adjust("4999 millis")
      const before = yield* show(resumed)
      expect(before.run.status).toBe("running")
      expect(before.steps.find((step) => step.path === "pause")).toBeUndefined()
      // Its last millisecond: the run ends, 5 s after the restart.
      yield* TestClock.adjust("1 millis")
      // (Bounded in real time: a run that slept until the restart + 10 s would never end here.)
      const end = yield* Effect.raceFirst(
        Fiber.join(execution),
        Effect.zipRight(Effect.promise(() => new Promise((resolve) => setTimeout(resolve, stallMs))), Effect.dieMessage("the resumed run did not end 5 s after its restart"))
      )
      expect(end).toBe("succeeded")
      const after = yield* show(resumed)
      expect(after.run.status).toBe("succeeded")
      expect(after.steps.find((step) => step.path === "pause")).toMatchObject({ kind: "wait", status: "succeeded", output: { until: new Date(until).toISOString() } })
      yield* Scope.close(second, Exit.void)
    }))
})
