import { describe, expect, it } from "@effect/vitest"
import * as WorkflowEngine from "@effect/workflow/WorkflowEngine"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Queue from "effect/Queue"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import * as AcknowledgingFirst from "../dist/engine/AcknowledgingFirst.js"
import * as Engine from "../dist/engine/Engine.js"
import * as Database from "../dist/store/Database.js"
import * as RunStore from "../dist/store/RunStore.js"

/** Says busy every 100 ms (as the receiving thread does while it is), for `ms`. */
const busyFor = (first: AcknowledgingFirst.AcknowledgingFirst, ms: number) =>
  Effect.forEach(Array.from({ length: ms / 100 }), () => Effect.zipRight(first.busy, TestClock.adjust("100 millis")), { discard: true })

describe("AcknowledgingFirst", () => {
  it.effect("holds while the receiving thread says it is busy, and until busyFor has passed since it last did", () =>
    Effect.gen(function*() {
      const first = AcknowledgingFirst.make()
      expect(yield* first.holds).toBe(false)
      yield* first.busy
      expect(yield* first.holds).toBe(true)
      yield* TestClock.adjust(Duration.millis(Duration.toMillis(AcknowledgingFirst.busyFor) - 1))
      expect(yield* first.holds).toBe(true)
      yield* TestClock.adjust("1 millis")
      expect(yield* first.holds).toBe(false)
    }))

  it.effect("a hold lasts maxHold at most: then the runs go for as long again, busy or not, and a hold may begin again after", () =>
    Effect.gen(function*() {
      const first = AcknowledgingFirst.make({ maxHold: "1 second" })
      const looks: Array<boolean> = []
      // Busy for 3 s, looked at every 100 ms.
      for (let i = 0; i < 30; i++) {
        yield* first.busy
        looks.push(yield* first.holds)
        yield* TestClock.adjust("100 millis")
      }
      // Held 1 s (10 looks), free 1 s, held again.
      expect(looks.slice(0, 10).every((held) => held)).toBe(true)
      expect(looks.slice(10, 20).every((held) => !held)).toBe(true)
      expect(looks.slice(20, 30).every((held) => held)).toBe(true)
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
      const first = AcknowledgingFirst.make()
      const wake = yield* Queue.sliding<void>(1)
      // Busy before the handoff first looks: a burst under way.
      yield* first.busy
      yield* Engine.handOff({ backlog: 8, local, wake, say: () => Effect.void, waiting: yield* Engine.makeWaiting, acknowledgingFirst: first }).pipe(
        Effect.provideService(RunStore.RunStore, store),
        Effect.provideService(Database.RunsHealth, health),
        Effect.provideService(WorkflowEngine.WorkflowEngine, engine)
      )
      return { first, started }
    })

  it.scoped("hands no new run while the receiving thread is busy; once it is not, every run at once", () =>
    Effect.gen(function*() {
      const { first, started } = yield* setUp(true)
      yield* busyFor(first, 2000)
      expect(started).toEqual([])
      // Not busy since: within busyFor and the handoff's next look, the runs go.
      yield* TestClock.adjust(Duration.sum(AcknowledgingFirst.busyFor, "100 millis"))
      expect(started).toEqual(runs.map((run) => run.runId))
    }))

  it.scoped("under a load that never ends, the runs still go after maxHold", () =>
    Effect.gen(function*() {
      const { first, started } = yield* setUp(true)
      yield* busyFor(first, Duration.toMillis(AcknowledgingFirst.maxHold) - 100)
      expect(started).toEqual([])
      yield* busyFor(first, 200)
      expect(started).toEqual(runs.map((run) => run.runId))
    }))

  it.scoped("on the cluster (not local) it does not hold: the runs there run on other runners too", () =>
    Effect.gen(function*() {
      const { first, started } = yield* setUp(false)
      yield* busyFor(first, 100)
      expect(started.length).toBeGreaterThan(0)
    }))
})
