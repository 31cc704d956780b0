/**
 * The runs' store on the embedded database: a redelivered event is the same run, each run's
 * attempt is handed to the engine once, a failed run goes back from its failed step, and the
 * triggers' state (a webhook's registration, a poll's cursor) is kept. The same code serves
 * PostgreSQL (clusterRunners.test.ts runs it there).
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import { SqlError } from "@effect/sql/SqlError"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as FiberId from "effect/FiberId"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Database from "../src/store/Database.js"
import * as RunStore from "../src/store/RunStore.js"
import type * as WriteBatcher from "../src/store/internal/writeBatcher.js"
import * as TriggerStore from "../src/store/TriggerStore.js"
import { stallMs } from "./bin.js"

const stores = () =>
  Layer.mergeAll(RunStore.layer, TriggerStore.layer).pipe(
    Layer.provide(Database.layer({ _tag: "Embedded", dataDir: mkdtempSync(join(tmpdir(), "x-runner-store-")) })),
    Layer.provide(NodeContext.layer)
  )

/** The store on its own database, through a group commit that counts the writes it is given. */
const countingStore = Effect.gen(function*() {
  const sql = yield* Database.RunsSql
  const writes = yield* Database.RunsWrites
  const counted = { writes: 0 }
  const batcher: WriteBatcher.WriteBatcher = {
    write: (write) => {
      counted.writes++
      return writes.write(write)
    }
  }
  return { store: yield* RunStore.make(sql, batcher), sql, counted }
})

const embedded = <A, E>(effect: Effect.Effect<A, E, Database.RunsSql | Database.RunsWrites>) =>
  effect.pipe(
    Effect.provide(Database.layer({ _tag: "Embedded", dataDir: mkdtempSync(join(tmpdir(), "x-runner-store-")) })),
    Effect.provide(NodeContext.layer)
  )

describe("RunStore", () => {
  it.effect("an event accepted twice is one run; each run's attempt is handed to the engine once, and again when asked", () =>
    Effect.gen(function*() {
      const store = yield* RunStore.RunStore
      const first = yield* store.accept("new-card", { id: "a1", output: { name: "Keyboards" } })
      const again = yield* store.accept("new-card", { id: "a1", output: { name: "Keyboards" } })
      const other = yield* store.accept("other", { id: "a1", output: {} })
      expect(first).toEqual({ runId: RunStore.runIdOf("new-card", "a1"), fresh: true })
      expect(again).toEqual({ runId: first.runId, fresh: false })
      expect(other.runId).not.toBe(first.runId)
      const both = [first.runId, other.runId].sort()
      expect((yield* store.toHand(10)).map((run) => run.runId).sort()).toEqual(both)
      expect((yield* store.toHand(1)).length).toBe(1)
      // Handed: not to hand again; a run finished is not either.
      yield* store.handed(first.runId, 0)
      expect((yield* store.toHand(10)).map((run) => run.runId)).toEqual([other.runId])
      // A stale attempt's handoff does not count for the current one.
      yield* store.handed(other.runId, 7)
      expect((yield* store.toHand(10)).map((run) => run.runId)).toEqual([other.runId])
      yield* store.handed(other.runId, 0)
      expect(yield* store.toHand(10)).toEqual([])
      // An execution that ended without finishing its run: handed again.
      yield* store.handAgain(first.runId)
      expect(yield* store.toHand(10)).toEqual([{ runId: first.runId, attempt: 0 }])
      yield* store.handed(first.runId, 0)
      expect(yield* store.runFinished(first.runId, 0, "succeeded", undefined)).toBe(true)
      // Written once: a run's end is not written again.
      expect(yield* store.runFinished(first.runId, 0, "failed", undefined)).toBe(false)
      expect(yield* store.unfinished).toBe(1)
      // Every unfinished run again (the embedded engine's start): the finished one is not.
      yield* store.handAgain()
      expect(yield* store.toHand(10)).toEqual([{ runId: other.runId, attempt: 0 }])
      const loaded = Option.getOrThrow(yield* store.load(first.runId))
      expect(loaded.event).toEqual({ name: "Keyboards" })
      expect(loaded.run).toMatchObject({ workflow: "new-card", eventId: "a1", status: "succeeded", attempt: 0 })
    }).pipe(Effect.provide(stores())))

  it.effect("events accepted at once are committed together, each its own run: the same event twice among them, or accepted before, is one run", () =>
    embedded(Effect.gen(function*() {
      const { counted, store } = yield* countingStore
      const before = yield* store.accept("new-card", { id: "old", output: { n: 0 } })
      expect(counted.writes).toBe(1)
      const ids = ["e1", "e2", "e1", "old", "e3", "e2"]
      const accepted = yield* Effect.all(ids.map((id, n) => store.accept("new-card", { id, output: { n } })), { concurrency: "unbounded" })
      // The six accepts were one write (one INSERT) of the group commit.
      expect(counted.writes).toBe(2)
      expect(accepted.map((a) => a.runId)).toEqual(ids.map((id) => RunStore.runIdOf("new-card", id)))
      // The first of each new event is fresh; a repeat in the same commit and the event accepted before are not.
      expect(accepted.map((a) => a.fresh)).toEqual([true, true, false, false, true, false])
      expect(before.fresh).toBe(true)
      expect((yield* store.toHand(10)).length).toBe(4)
      // Each run keeps the event it was first accepted with.
      expect(Option.getOrThrow(yield* store.load(accepted[0]!.runId)).event).toEqual({ n: 0 })
      expect(Option.getOrThrow(yield* store.load(accepted[1]!.runId)).event).toEqual({ n: 1 })
      expect(Option.getOrThrow(yield* store.load(before.runId)).event).toEqual({ n: 0 })
      expect(Option.getOrThrow(yield* store.load(accepted[4]!.runId)).event).toEqual({ n: 4 })
    })))

  it.effect("a row the database refuses fails its own accept only: the others written in the same group are accepted", () =>
    embedded(Effect.gen(function*() {
      const { counted, sql, store } = yield* countingStore
      yield* sql.unsafe(`CREATE TRIGGER refuse_bad BEFORE INSERT ON xr_runs WHEN NEW.event_id = 'bad' BEGIN SELECT RAISE(ABORT, 'a bad row'); END`)
      const ids = ["g1", "bad", "g2", "bad"]
      const accepted = yield* Effect.all(ids.map((id) => Effect.either(store.accept("new-card", { id, output: {} }))), { concurrency: "unbounded" })
      expect(accepted.map((a) => a._tag === "Right" ? a.right.fresh : a.left._tag)).toEqual([true, "StoreFailed", true, "StoreFailed"])
      // The group's write, then its three rows one by one.
      expect(counted.writes).toBe(4)
      expect((yield* store.toHand(10)).map((run) => run.runId).sort()).toEqual(
        [RunStore.runIdOf("new-card", "g1"), RunStore.runIdOf("new-card", "g2")].sort()
      )
      // The group is closed: the next accept is a group of its own and written.
      expect(yield* store.accept("new-card", { id: "g3", output: {} })).toEqual({ runId: RunStore.runIdOf("new-card", "g3"), fresh: true })
    })))

  // Live: the bound on the later accepts is real time.
  it.live("an accept interrupted as it forms its group still writes the group: the accepts after it are answered", () =>
    embedded(Effect.gen(function*() {
      const sql = yield* Database.RunsSql
      const writes = yield* Database.RunsWrites
      let interruptNext = true
      // The first accept's fiber is interrupted while it starts its group's write (the earliest
      // point after the group is formed that a test can reach).
      const batcher: WriteBatcher.WriteBatcher = {
        write: (write) => {
          if (interruptNext) {
            interruptNext = false
            Option.getOrThrow(Fiber.getCurrentFiber()).unsafeInterruptAsFork(FiberId.none)
          }
          return writes.write(write)
        }
      }
      const store = yield* RunStore.make(sql, batcher)
      const first = yield* Effect.fork(store.accept("new-card", { id: "e1", output: {} }))
      yield* Fiber.await(first)
      expect(interruptNext).toBe(false)
      const later = yield* Effect.all(["e2", "e3"].map((id) => store.accept("new-card", { id, output: {} })), { concurrency: "unbounded" }).pipe(
        // A stall bound, not a speed: they end in milliseconds, or never.
        Effect.timeoutFail({ duration: stallMs, onTimeout: () => new Error("the accepts after the interrupted one never ended") })
      )
      expect(later.map((a) => a.fresh)).toEqual([true, true])
      // The interrupted accept's event was written all the same.
      expect((yield* store.toHand(10)).length).toBe(3)
    })))

  it.effect("an accept whose write was refused before its INSERT ran (its transaction could not begin) leaves nothing behind: the next accept is written", () =>
    Effect.gen(function*() {
      const sql = yield* Database.RunsSql
      let refusing = true
      // The group commit refusing a write without running it, as when PostgreSQL is gone at BEGIN.
      const batcher: WriteBatcher.WriteBatcher = {
        write: (write) => refusing ? Effect.fail(new SqlError({ cause: new Error("gone"), message: "connection refused" })) : write
      }
      const store = yield* RunStore.make(sql, batcher)
      expect((yield* Effect.either(store.accept("new-card", { id: "e1", output: {} })))._tag).toBe("Left")
      refusing = false
      expect(yield* store.accept("new-card", { id: "e2", output: {} })).toEqual({ runId: RunStore.runIdOf("new-card", "e2"), fresh: true })
      expect(yield* store.accept("new-card", { id: "e1", output: {} })).toEqual({ runId: RunStore.runIdOf("new-card", "e1"), fresh: true })
    }).pipe(
      Effect.provide(Database.layer({ _tag: "Embedded", dataDir: mkdtempSync(join(tmpdir(), "x-runner-store-")) })),
      Effect.provide(NodeContext.layer)
    ))

  it.effect("a failed run goes back to the engine: its tasks that succeeded keep their outputs, the others are cleared to run again", () =>
    Effect.gen(function*() {
      const store = yield* RunStore.RunStore
      const { runId } = yield* store.accept("copy", { id: "e1", output: {} })
      yield* store.runStarted(runId, 0, "runner-a")
      const action = { kind: "action", startedAt: 1000 } as const
      yield* store.stepFinished(runId, { ...action, path: "copy", name: "copy", type: "boardtool/v1/createCard", status: "succeeded", output: { id: "c1" }, durationMs: 5 })
      yield* store.stepFinished(runId, { kind: "loop", path: "each", name: "each", type: "loop", status: "failed", startedAt: 1001, error: { tag: "NotFound", message: "gone" } })
      yield* store.stepFinished(runId, { ...action, startedAt: 1002, path: "each[0].check", name: "check", type: "boardtool/v1/getCard", status: "succeeded", output: { id: "c1" }, attempts: 1 })
      yield* store.stepFinished(runId, { ...action, startedAt: 1003, path: "each[1].check", name: "check", type: "boardtool/v1/getCard", status: "failed", error: { tag: "NotFound", message: "gone" }, attempts: 3 })
      yield* store.stepFinished(runId, { ...action, startedAt: 1004, path: "after", name: "after", type: "boardtool/v1/getCard", status: "skipped" })
      yield* store.runFinished(runId, 0, "failed", "each[1].check")
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
      yield* store.runFinished(done.runId, 0, "succeeded", undefined)
      expect(Option.getOrThrow(yield* store.retry(done.runId)).status).toBe("succeeded")
      expect(yield* store.retry("0000000000000000")).toEqual(Option.none())
    }).pipe(Effect.provide(stores())))

  it.effect("a run x-runner run records is its own: no serving runner is handed it, counts it as unfinished, or retries it", () =>
    Effect.gen(function*() {
      const store = yield* RunStore.RunStore
      const rerun = { sandbox: false, withoutRateLimits: false, allowPrivateNetworks: false, inputNames: [], inputsSalt: "s", inputsDigest: "d" }
      const runId = yield* store.recordStarted({ workflow: "copy", file: "/work/copy.json", runner: "run:host:1", rerun })
      expect(yield* store.toHand(10)).toEqual([])
      expect(yield* store.unfinished).toBe(0)
      // Nor is it the newest run of its workflow for a trigger's catch-up (which reads serve's only).
      expect(yield* store.list({ limit: 10, workflow: "copy", origin: "serve" })).toEqual([])
      expect((yield* store.list({ limit: 10, workflow: "copy", origin: "run" })).map((run) => run.id)).toEqual([runId])
      yield* store.stepFinished(runId, { path: "copy", name: "copy", kind: "action", type: "boardtool/v1/createCard", status: "failed", error: { tag: "NotFound", message: "gone" } })
      expect(Option.getOrThrow(yield* store.step(runId, "copy")).status).toBe("failed")
      expect(yield* store.runFinished(runId, 0, "failed", "copy")).toBe(true)
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
      const copy = { path: "each[2].copy", name: "copy", type: "boardtool/v1/createCard" }
      const at = yield* store.writeSent(runId, { ...copy, attempt: 1 })
      const step = Option.getOrThrow(yield* store.step(runId, "each[2].copy"))
      expect(step).toMatchObject({ status: "running", kind: "action", writeSentAt: at, writeAttempt: 1 })
      // A second request of the same attempt keeps the first time: what it created may date from then.
      // (Its times are the wall clock's: a few milliseconds apart.)
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 5)))
      yield* store.writeSent(runId, { ...copy, attempt: 1 })
      expect(Option.getOrThrow(yield* store.step(runId, "each[2].copy")).writeSentAt).toBe(at)
      // A retry's next attempt has a marker of its own.
      const second = yield* store.writeSent(runId, { ...copy, attempt: 2 })
      expect(second).toBeGreaterThan(at)
      expect(Option.getOrThrow(yield* store.step(runId, "each[2].copy"))).toMatchObject({ writeSentAt: second, writeAttempt: 2 })
    }).pipe(Effect.provide(stores())))
})

describe("TriggerStore", () => {
  it.effect("keeps a webhook's registration and a poll's cursor", () =>
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
    }).pipe(Effect.provide(stores())))
})
