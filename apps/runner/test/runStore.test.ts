/**
 * The runs' store on the embedded database: a redelivered event is the same run, a run is
 * claimed by one runner while it is alive, a failed run goes back from its failed step, and the
 * triggers' state (a webhook's registration, a poll's cursor) and the runners' heartbeats are
 * kept. The same code serves PostgreSQL (the two-runner test of `durable.test.ts` runs it there).
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Database from "../src/store/Database.js"
import * as RunStore from "../src/store/RunStore.js"
import * as TriggerStore from "../src/store/TriggerStore.js"

const stores = () =>
  Layer.mergeAll(RunStore.layer, TriggerStore.layer).pipe(
    Layer.provide(Database.layer({ _tag: "Embedded", dataDir: mkdtempSync(join(tmpdir(), "x-runner-store-")) })),
    Layer.provide(NodeContext.layer)
  )

describe("RunStore", () => {
  it.effect("an event accepted twice is one run; a run is one runner's while it heartbeats, then another's", () =>
    Effect.gen(function*() {
      const store = yield* RunStore.RunStore
      const first = yield* store.accept("new-card", { id: "a1", output: { name: "Keyboards" } })
      const again = yield* store.accept("new-card", { id: "a1", output: { name: "Keyboards" } })
      const other = yield* store.accept("other", { id: "a1", output: {} })
      expect(first).toEqual({ runId: RunStore.runIdOf("new-card", "a1"), fresh: true })
      expect(again).toEqual({ runId: first.runId, fresh: false })
      expect(other.runId).not.toBe(first.runId)
      const triggers = yield* TriggerStore.TriggerStore
      const alive = { aliveWithinMillis: 6_000 }
      // Claimed once: a second claim (another runner) gets nothing while the first heartbeats.
      yield* triggers.heartbeat("runner-a")
      yield* triggers.heartbeat("runner-b")
      const claimed = yield* store.claim("runner-a", 10, alive)
      expect(claimed.map((c) => c.runId).sort()).toEqual([first.runId, other.runId].sort())
      expect(yield* store.claim("runner-b", 10, alive)).toEqual([])
      expect(yield* store.claim("runner-a", 10, alive)).toEqual([])
      // A run let go of is claimed again; one finished is nobody's.
      yield* store.release(first.runId, "runner-a")
      expect((yield* store.claim("runner-b", 10, alive)).map((c) => c.runId)).toEqual([first.runId])
      expect(yield* store.runFinished(first.runId, "runner-b", 0, "succeeded", undefined)).toBe(true)
      expect(yield* store.unfinished).toBe(1)
      // Runner A gone (stopped, or silent for longer than the window): its run is B's.
      yield* triggers.leave("runner-a")
      expect((yield* store.claim("runner-b", 10, alive)).map((c) => c.runId)).toEqual([other.runId])
      // The embedded database's next runner takes over every other's runs.
      expect((yield* store.claim("runner-c", 10, "all others")).map((c) => c.runId)).toEqual([other.runId])
      const loaded = Option.getOrThrow(yield* store.load(first.runId))
      expect(loaded.event).toEqual({ name: "Keyboards" })
      expect(loaded.run).toMatchObject({ workflow: "new-card", eventId: "a1", status: "succeeded", attempt: 0 })
    }).pipe(Effect.provide(stores())))

  it.effect("a failed run goes back to the engine: its tasks that succeeded keep their outputs, the others are cleared to run again", () =>
    Effect.gen(function*() {
      const store = yield* RunStore.RunStore
      const { runId } = yield* store.accept("copy", { id: "e1", output: {} })
      yield* store.claim("runner-a", 10, "all others")
      yield* store.runStarted(runId, 0, "runner-a")
      const action = { kind: "action", startedAt: 1000 } as const
      yield* store.stepFinished(runId, "runner-a", { ...action, path: "copy", name: "copy", type: "boardtool/v1/createCard", status: "succeeded", output: { id: "c1" }, durationMs: 5 })
      yield* store.stepFinished(runId, "runner-a", { kind: "loop", path: "each", name: "each", type: "loop", status: "failed", startedAt: 1001, error: { tag: "NotFound", message: "gone" } })
      yield* store.stepFinished(runId, "runner-a", { ...action, startedAt: 1002, path: "each[0].check", name: "check", type: "boardtool/v1/getCard", status: "succeeded", output: { id: "c1" }, attempts: 1 })
      yield* store.stepFinished(runId, "runner-a", { ...action, startedAt: 1003, path: "each[1].check", name: "check", type: "boardtool/v1/getCard", status: "failed", error: { tag: "NotFound", message: "gone" }, attempts: 3 })
      yield* store.stepFinished(runId, "runner-a", { ...action, startedAt: 1004, path: "after", name: "after", type: "boardtool/v1/getCard", status: "skipped" })
      yield* store.runFinished(runId, "runner-a", 0, "failed", "each[1].check")
      expect((yield* store.list({ limit: 10, status: "failed" })).map((run) => [run.id, run.failedStep])).toEqual([[runId, "each[1].check"]])
      expect(Option.getOrThrow(yield* store.show(runId)).steps.map((step) => [step.path, step.status, step.attempts])).toEqual([
        ["copy", "succeeded", undefined],
        ["each", "failed", undefined],
        ["each[0].check", "succeeded", 1],
        ["each[1].check", "failed", 3],
        ["after", "skipped", undefined]
      ])
      const retried = Option.getOrThrow(yield* store.retry(runId))
      expect(retried).toMatchObject({ status: "accepted", attempt: 1 })
      const loaded = Option.getOrThrow(yield* store.load(runId))
      expect([...loaded.steps].map(([path, step]) => [path, step.output])).toEqual([["copy", { id: "c1" }], ["each[0].check", { id: "c1" }]])
      // A run that did not fail is not retried.
      const done = yield* store.accept("copy", { id: "e2", output: {} })
      yield* store.claim("runner-a", 10, "all others")
      yield* store.runFinished(done.runId, "runner-a", 0, "succeeded", undefined)
      expect(Option.getOrThrow(yield* store.retry(done.runId)).status).toBe("succeeded")
      expect(yield* store.retry("0000000000000000")).toEqual(Option.none())
    }).pipe(Effect.provide(stores())))

  it.effect("a run x-runner run records is its own: no serving runner claims it, counts it as unfinished, or retries it", () =>
    Effect.gen(function*() {
      const store = yield* RunStore.RunStore
      const rerun = { sandbox: false, withoutRateLimits: false, allowPrivateNetworks: false, inputNames: [], inputsSalt: "s", inputsDigest: "d" }
      const runId = yield* store.recordStarted({ workflow: "copy", file: "/work/copy.json", runner: "run:host:1", rerun })
      expect(yield* store.claim("runner-a", 10, "all others")).toEqual([])
      expect(yield* store.unfinished).toBe(0)
      // Nor is it the newest run of its workflow for a trigger's catch-up (which reads serve's only).
      expect(yield* store.list({ limit: 10, workflow: "copy", origin: "serve" })).toEqual([])
      expect((yield* store.list({ limit: 10, workflow: "copy", origin: "run" })).map((run) => run.id)).toEqual([runId])
      expect(yield* store.stepFinished(runId, "run:host:1", { path: "copy", name: "copy", kind: "action", type: "boardtool/v1/createCard", status: "failed", error: { tag: "NotFound", message: "gone" } })).toBe(true)
      expect(yield* store.runFinished(runId, "run:host:1", 0, "failed", "copy")).toBe(true)
      expect(Option.getOrThrow(yield* store.retry(runId))).toMatchObject({ status: "failed", origin: "run", file: "/work/copy.json", attempt: 0, rerun })
      const shown = Option.getOrThrow(yield* store.show(runId))
      expect(shown.run).toMatchObject({ workflow: "copy", status: "failed", failedStep: "copy", origin: "run", runner: "run:host:1" })
      expect(shown.steps.map((step) => [step.path, step.status])).toEqual([["copy", "failed"]])
      // Its own process runs it again: the next attempt, its; what did not succeed cleared.
      const again = Option.getOrThrow(yield* store.retryHere(runId, "run:host:2"))
      expect(again.run).toMatchObject({ status: "running", attempt: 1, runner: "run:host:2" })
      expect([...again.steps.keys()]).toEqual([])
      expect(yield* store.retryHere(runId, "run:host:3")).toEqual(Option.none())
    }).pipe(Effect.provide(stores())))

  it.effect("a write marker is committed on the step's row before its request goes, with its attempt", () =>
    Effect.gen(function*() {
      const store = yield* RunStore.RunStore
      const { runId } = yield* store.accept("copy", { id: "e1", output: {} })
      yield* store.claim("runner-a", 10, "all others")
      const copy = { path: "each[2].copy", name: "copy", type: "boardtool/v1/createCard" }
      const at = Option.getOrThrow(yield* store.writeSent(runId, "runner-a", { ...copy, attempt: 1 }))
      const step = Option.getOrThrow(yield* store.step(runId, "each[2].copy"))
      expect(step).toMatchObject({ status: "running", kind: "action", writeSentAt: at, writeAttempt: 1 })
      // A second request of the same attempt keeps the first time: what it created may date from then.
      // (Its times are the wall clock's: a few milliseconds apart.)
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 5)))
      yield* store.writeSent(runId, "runner-a", { ...copy, attempt: 1 })
      expect(Option.getOrThrow(yield* store.step(runId, "each[2].copy")).writeSentAt).toBe(at)
      // A retry's next attempt has a marker of its own.
      const second = Option.getOrThrow(yield* store.writeSent(runId, "runner-a", { ...copy, attempt: 2 }))
      expect(second).toBeGreaterThan(at)
      expect(Option.getOrThrow(yield* store.step(runId, "each[2].copy"))).toMatchObject({ writeSentAt: second, writeAttempt: 2 })
    }).pipe(Effect.provide(stores())))

  it.effect("a run taken over is fenced: the runner that had it writes no marker, step or end of it", () =>
    Effect.gen(function*() {
      const store = yield* RunStore.RunStore
      const { runId } = yield* store.accept("copy", { id: "e1", output: {} })
      yield* store.claim("runner-a", 10, "all others")
      // Runner A stalls; runner B takes the run over.
      expect((yield* store.claim("runner-b", 10, "all others")).map((run) => run.runId)).toEqual([runId])
      const step = { path: "copy", name: "copy", type: "boardtool/v1/createCard" }
      expect(yield* store.writeSent(runId, "runner-a", { ...step, attempt: 1 })).toEqual(Option.none())
      expect(yield* store.stepFinished(runId, "runner-a", { ...step, kind: "action", status: "failed", error: { tag: "UpstreamUnavailable", message: "x" } })).toBe(false)
      expect(yield* store.runFinished(runId, "runner-a", 0, "failed", "copy")).toBe(false)
      expect(yield* store.step(runId, "copy")).toEqual(Option.none())
      expect(Option.getOrThrow(yield* store.load(runId)).run.status).toBe("accepted")
      // Runner B's writes go in.
      expect(Option.isSome(yield* store.writeSent(runId, "runner-b", { ...step, attempt: 1 }))).toBe(true)
      expect(yield* store.stepFinished(runId, "runner-b", { ...step, kind: "action", status: "succeeded", output: { id: "c1" } })).toBe(true)
      expect(yield* store.runFinished(runId, "runner-b", 0, "succeeded", undefined)).toBe(true)
      expect(Option.getOrThrow(yield* store.load(runId)).run.status).toBe("succeeded")
    }).pipe(Effect.provide(stores())))
})

describe("TriggerStore", () => {
  it.effect("keeps a webhook's registration and a poll's cursor; counts the runners alive", () =>
    Effect.gen(function*() {
      const triggers = yield* TriggerStore.TriggerStore
      expect(yield* triggers.get("new-card")).toEqual(Option.none())
      yield* triggers.enabled({ workflow: "new-card", type: "boardtool/v1/newCard", parameters: { idList: "l" }, url: "https://x/hooks", state: { webhookId: "w1" } })
      expect(Option.getOrThrow(yield* triggers.get("new-card"))).toMatchObject({
        type: "boardtool/v1/newCard",
        parameters: { idList: "l" },
        url: "https://x/hooks",
        state: Option.some({ webhookId: "w1" }),
        cursor: Option.none()
      })
      yield* triggers.disabled("new-card")
      expect(Option.getOrThrow(yield* triggers.get("new-card")).state).toEqual(Option.none())
      yield* triggers.polled({ workflow: "due", type: "boardtool/v1/cardDueSoon", parameters: { hours: 24 }, cursor: { polledAt: 1 } })
      expect(Option.getOrThrow(yield* triggers.get("due")).cursor).toEqual(Option.some({ polledAt: 1 }))
      yield* triggers.heartbeat("a")
      yield* triggers.heartbeat("b")
      expect(yield* triggers.othersAlive("a", 10_000)).toBe(1)
      yield* triggers.leave("b")
      expect(yield* triggers.othersAlive("a", 10_000)).toBe(0)
      // A heartbeat is one effect repeated: each beat stores the time it runs at. (The count's
      // window, 3 s, is shorter than the wait after the first beat, so that beat is out of it
      // however slow the machine, and wide enough that a busy machine's pause between the second
      // beat and the count, which only a stall makes seconds long, does not close it.)
      const beat = triggers.heartbeat("c")
      yield* beat
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 3_100)))
      expect(yield* triggers.othersAlive("a", 3_000)).toBe(0)
      yield* beat
      expect(yield* triggers.othersAlive("a", 3_000)).toBe(1)
    }).pipe(Effect.provide(stores())))
})
