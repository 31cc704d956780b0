import { describe, expect, it } from "@effect/vitest"
import * as WorkflowEngine from "@effect/workflow/WorkflowEngine"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Queue from "effect/Queue"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import * as AcknowledgingFirst from "../dist/engine/AcknowledgingFirst.js"
import * as Engine from "../dist/engine/Engine.js"
import * as Database from "../dist/store/Database.js"
import * as RunStore from "../dist/store/RunStore.js"

/** Says busy every 100 ms (as the receiving thread does while it is), for `ms`. */
const sayBusyFor = (acknowledging: AcknowledgingFirst.AcknowledgingFirst, ms: number) =>
  Effect.forEach(Array.from({ length: ms / 100 }), () => Effect.zipRight(acknowledging.busy, TestClock.adjust("100 millis")), { discard: true })

describe("AcknowledgingFirst", () => {
  it.effect("holds while the receiving thread says it is busy, and until stillBusyFor has passed since it last did", () =>
    Effect.gen(function*() {
      const acknowledging = AcknowledgingFirst.make()
      expect(yield* acknowledging.holds).toBe(false)
      yield* acknowledging.busy
      expect(yield* acknowledging.holds).toBe(true)
      yield* TestClock.adjust(Duration.millis(Duration.toMillis(AcknowledgingFirst.stillBusyFor) - 1))
      expect(yield* acknowledging.holds).toBe(true)
      yield* TestClock.adjust("1 millis")
      expect(yield* acknowledging.holds).toBe(false)
    }))

  it.effect("a hold lasts maxHold at most: then the runs go for as long again, busy or not, and a hold may begin again after", () =>
    Effect.gen(function*() {
      const acknowledging = AcknowledgingFirst.make({ maxHold: "1 second" })
      const looks: Array<boolean> = []
      // Busy for 3 s, looked at every 100 ms.
      for (let i = 0; i < 30; i++) {
        yield* acknowledging.busy
        looks.push(yield* acknowledging.holds)
        yield* TestClock.adjust("100 millis")
      }
      // Held 1 s (10 looks), free 1 s, held again.
      expect(looks.slice(0, 10).every((held) => held)).toBe(true)
      expect(looks.slice(10, 20).every((held) => !held)).toBe(true)
      expect(looks.slice(20, 30).every((held) => held)).toBe(true)
    }))

  it.effect("a lull shorter than maxHold does not start a hold's count again: a load with short pauses is still held at most maxHold", () =>
    Effect.gen(function*() {
      const acknowledging = AcknowledgingFirst.make({ maxHold: "1 second" })
      // Busy, and held, for 900 ms (the handoff looks as it is told).
      for (let i = 0; i < 9; i++) {
        yield* acknowledging.busy
        expect(yield* acknowledging.holds).toBe(true)
        yield* TestClock.adjust("100 millis")
      }
      // A 300 ms lull: not held meanwhile; busy again, the hold keeps its start, 1.2 s ago: past maxHold, the runs go.
      yield* TestClock.adjust("300 millis")
      expect(yield* acknowledging.holds).toBe(false)
      yield* acknowledging.busy
      expect(yield* acknowledging.holds).toBe(false)
    }))

  it.live("watch says busy while the thread's event loop is busy and runs were accepted, and never without accepted runs", () =>
    Effect.gen(function*() {
      const said = { withRuns: 0, withoutRuns: 0 }
      const withRuns = yield* Effect.fork(AcknowledgingFirst.watch(Effect.sync(() => void said.withRuns++), () => true))
      const withoutRuns = yield* Effect.fork(AcknowledgingFirst.watch(Effect.sync(() => void said.withoutRuns++), () => false))
      // The event loop held for 300 ms: every look in that time finds it busy.
      yield* Effect.sleep("10 millis")
      const until = Date.now() + 300
      while (Date.now() < until) { /* busy */ }
      yield* Effect.sleep("250 millis")
      yield* Fiber.interrupt(withRuns)
      yield* Fiber.interrupt(withoutRuns)
      expect(said.withRuns).toBeGreaterThanOrEqual(1)
      expect(said.withoutRuns).toBe(0)
    }))
})

describe("the handoff, acknowledging first", () => {
  const runs = Array.from({ length: 5 }, (_, i) => ({ runId: `r${i}`, attempt: 0 }))
  const setUp = (local: boolean) =>
    Effect.gen(function*() {
      let handed = 0
      const store = {
        toHand: (max: number) => Effect.sync(() => runs.slice(handed, handed = Math.min(runs.length, handed + max))),
        handed: () => Effect.void,
        inEngine: Effect.succeed(0)
      } as unknown as RunStore.RunStore
      const health = { failing: Effect.succeedNone, changes: Stream.empty, writable: Effect.void, refused: () => Effect.void }
      const started: Array<string> = []
      const engine = {
        execute: (_workflow: unknown, { payload }: { readonly payload: { readonly runId: string } }) =>
          Effect.sync(() => void started.push(payload.runId))
      } as unknown as WorkflowEngine.WorkflowEngine["Type"]
      const acknowledging = AcknowledgingFirst.make()
      const wake = yield* Queue.sliding<void>(1)
      // Busy before the handoff first looks: a burst under way.
      yield* acknowledging.busy
      yield* Engine.handOff({ backlog: 8, local, wake, say: () => Effect.void, waiting: yield* Engine.makeWaiting, acknowledgingFirst: acknowledging }).pipe(
        Effect.provideService(RunStore.RunStore, store),
        Effect.provideService(Database.RunsHealth, health),
        Effect.provideService(WorkflowEngine.WorkflowEngine, engine)
      )
      return { acknowledging, started }
    })

  it.scoped("hands no new run while the receiving thread is busy; once it is not, every run at once", () =>
    Effect.gen(function*() {
      const { acknowledging, started } = yield* setUp(true)
      yield* sayBusyFor(acknowledging, 2000)
      expect(started).toEqual([])
      // Not busy since: within stillBusyFor and the handoff's next look, the runs go.
      yield* TestClock.adjust(Duration.sum(AcknowledgingFirst.stillBusyFor, "100 millis"))
      expect(started).toEqual(runs.map((run) => run.runId))
    }))

  it.scoped("under a load that never ends, the runs still go after maxHold", () =>
    Effect.gen(function*() {
      const { acknowledging, started } = yield* setUp(true)
      yield* sayBusyFor(acknowledging, Duration.toMillis(AcknowledgingFirst.maxHold) - 100)
      expect(started).toEqual([])
      yield* sayBusyFor(acknowledging, 200)
      expect(started).toEqual(runs.map((run) => run.runId))
    }))

  it.scoped("on the cluster (not local) it does not hold: the runs there run on other runners too", () =>
    Effect.gen(function*() {
      const { acknowledging, started } = yield* setUp(false)
      yield* sayBusyFor(acknowledging, 100)
      expect(started.length).toBeGreaterThan(0)
    }))
})
