/**
 * The schedule trigger's ticks in process: Effect's `Cron` across Berlin's daylight-saving
 * changes (what the README states), and the keeper on the TestClock with an in-memory store:
 * one run per tick, missed ticks skipped or the newest run once, a tick accepted twice not run
 * twice, a tick due across the autumn change fired once.
 */
import { describe, expect, it } from "@effect/vitest"
import { Executor } from "@x/core"
import * as Cron from "effect/Cron"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as TestClock from "effect/TestClock"
import { schedule, tickAfter } from "../src/components/ScheduleComponent.js"
import * as ScheduleTrigger from "../src/engine/ScheduleTrigger.js"
import { Output } from "../src/Output.js"
import { type TriggerRecord, TriggerStore } from "../src/store/TriggerStore.js"
import type * as Workflow from "../src/workflow/Workflow.js"

const berlin = (expression: string) => Either.getOrThrow(Cron.parse(expression, "Europe/Berlin"))
const iso = (text: string) => new Date(text).toISOString()
/** The local wall time of an instant in Berlin, as `YYYY-MM-DD HH:MM` with the weekday. */
const inBerlin = (date: Date) =>
  new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Berlin", weekday: "short", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" })
    .format(date)

describe("schedule ticks across daylight-saving changes (Effect's Cron, Europe/Berlin)", () => {
  it("a weekly 9:00 tick stays at 9:00 local time across both changes", () => {
    const weekly = berlin("0 9 * * 1")
    const ticks: Array<Date> = []
    for (let from = new Date("2026-03-16T00:00:00Z"); ticks.length < 3; from = ticks[ticks.length - 1]!) ticks.push(tickAfter(weekly, from))
    // 9:00 CET is 08:00Z; after the spring change (March 29th) 9:00 CEST is 07:00Z.
    expect(ticks.map((t) => t.toISOString())).toEqual([iso("2026-03-16T08:00:00Z"), iso("2026-03-23T08:00:00Z"), iso("2026-03-30T07:00:00Z")])
    const autumn = [tickAfter(weekly, new Date("2026-10-20T00:00:00Z"))]
    autumn.push(tickAfter(weekly, autumn[0]!))
    expect(autumn.map((t) => t.toISOString())).toEqual([iso("2026-10-26T08:00:00Z"), iso("2026-11-02T08:00:00Z")])
    expect([...ticks, ...autumn].map(inBerlin).every((text) => text.startsWith("Mon") && text.endsWith("09:00"))).toBe(true)
  })

  it("spring: 02:30 does not exist on March 29th, so it fires at 03:30 local time; autumn: 02:30 occurs twice and fires once, at the first", () => {
    const daily = berlin("0 30 2 * * *")
    const spring = tickAfter(daily, new Date("2026-03-28T12:00:00Z"))
    expect(spring.toISOString()).toBe(iso("2026-03-29T01:30:00Z"))
    expect(inBerlin(spring)).toBe("Sun, 29/03/2026, 03:30")
    // 02:30 CEST (00:30Z), then not 02:30 CET (01:30Z) but the next day's.
    const first = tickAfter(daily, new Date("2026-10-24T12:00:00Z"))
    expect(first.toISOString()).toBe(iso("2026-10-25T00:30:00Z"))
    expect(tickAfter(daily, first).toISOString()).toBe(iso("2026-10-26T01:30:00Z"))
  })

  it("asked from inside the hour that occurs twice, the next tick is after that time (Effect's Cron.next alone answers an hour before it)", () => {
    const inside = new Date("2026-10-25T01:15:00Z")
    for (const expression of ["* * * * * *", "0 */5 * * * *", "0 30 2 * * *", "0 0 * * * *"]) {
      const cron = berlin(expression)
      // What tickAfter works around: Effect's answer walks back.
      if (expression === "0 30 2 * * *") expect(Cron.next(cron, inside).getTime()).toBeLessThan(inside.getTime())
      for (let minute = 0; minute < 60; minute += 7) {
        const from = new Date(inside.getTime() + (minute - 15) * 60_000)
        expect(tickAfter(cron, from).getTime()).toBeGreaterThan(from.getTime())
      }
    }
    expect(tickAfter(berlin("0 30 2 * * *"), inside).toISOString()).toBe(iso("2026-10-26T01:30:00Z"))
  })
})

/** The trigger of a workflow with these parameters, checked as a workflow file's would be. */
const checkedTrigger = (parameters: Record<string, unknown>): Workflow.CheckedTrigger => {
  const executor = Executor.make([schedule])
  const step = { label: "Tick", name: "tick", type: "schedule/v1/cron", parameters }
  const prepared = Either.getOrThrow(executor.prepareTrigger(step))
  return { component: schedule, step, parameters, prepared } as unknown as Workflow.CheckedTrigger
}

/** A TriggerStore in memory (only what the keeper uses), and the runs accepted by event id. */
const memory = (stored?: { readonly cursor: unknown; readonly parameters: unknown }) => {
  const records = new Map<string, TriggerRecord>()
  if (stored !== undefined) {
    records.set("tick", { workflow: "tick", type: "schedule/v1/cron", parameters: stored.parameters, url: undefined, state: Option.none(), cursor: Option.some(stored.cursor), unreadable: [] })
  }
  const runs = new Map<string, { scheduledAt: string; firedAt: string }>()
  const accepted: Array<string> = []
  const lines: Array<string> = []
  const store = {
    get: (workflow: string) => Effect.sync(() => Option.fromNullable(records.get(workflow))),
    polled: (record: { workflow: string; type: string; parameters: unknown; cursor: unknown }) =>
      Effect.sync(() => void records.set(record.workflow, { ...record, url: undefined, state: Option.none(), cursor: Option.some(record.cursor), unreadable: [] }))
  } as unknown as TriggerStore
  const layer = Layer.merge(
    Layer.succeed(TriggerStore, store),
    Layer.succeed(Output, { out: () => Effect.void, err: (text) => Effect.sync(() => void lines.push(text)) })
  )
  const accept = (_: string, event: { readonly id: string; readonly output: { scheduledAt: string; firedAt: string } }) =>
    Effect.sync(() => {
      accepted.push(event.id)
      const fresh = !runs.has(event.id)
      if (fresh) runs.set(event.id, event.output)
      return { fresh }
    })
  return { records, runs, accepted, lines, layer, accept }
}

describe("the schedule keeper on the TestClock", () => {
  it.effect("every second for 5 s: five runs, one per tick, each keyed by its time", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(new Date("2026-06-01T12:00:00.400Z").getTime())
      const store = memory()
      const fiber = yield* Effect.fork(Effect.provide(ScheduleTrigger.keep({ name: "tick", checked: checkedTrigger({ cron: "*/1 * * * * *" }), accept: store.accept }), store.layer))
      yield* TestClock.adjust("5 seconds")
      yield* Fiber.interrupt(fiber)
      expect([...store.runs.keys()]).toEqual([1, 2, 3, 4, 5].map((s) => iso(`2026-06-01T12:00:0${s}.000Z`)))
      expect(store.runs.get(iso("2026-06-01T12:00:01Z"))).toEqual({ scheduledAt: iso("2026-06-01T12:00:01Z"), firedAt: iso("2026-06-01T12:00:01Z") })
      expect(Option.getOrThrow(store.records.get("tick")!.cursor)).toEqual({ lastTick: iso("2026-06-01T12:00:05Z") })
    }))

  it.effect("a restart: missed ticks skipped by default; with missed: runLast the newest runs once; a first start misses nothing", () =>
    Effect.gen(function*() {
      const parameters = { cron: "0 * * * * *" }
      // Stopped after 12:03; started again at 12:07:30: 12:04 … 12:07 came due meanwhile.
      yield* TestClock.setTime(new Date("2026-06-01T12:07:30Z").getTime())
      const skipping = memory({ cursor: { lastTick: iso("2026-06-01T12:03:00Z") }, parameters })
      const first = yield* Effect.fork(Effect.provide(ScheduleTrigger.keep({ name: "tick", checked: checkedTrigger(parameters), accept: skipping.accept }), skipping.layer))
      yield* TestClock.adjust("1 minute")
      yield* Fiber.interrupt(first)
      expect([...skipping.runs.keys()]).toEqual([iso("2026-06-01T12:08:00Z")])
      expect(skipping.lines.join("\n")).toContain("○ 4 ticks came due while nothing served tick: skipped")

      yield* TestClock.setTime(new Date("2026-06-01T12:07:30Z").getTime())
      const runLast = { cron: "0 * * * * *", missed: "runLast" }
      const running = memory({ cursor: { lastTick: iso("2026-06-01T12:03:00Z") }, parameters: runLast })
      const second = yield* Effect.fork(Effect.provide(ScheduleTrigger.keep({ name: "tick", checked: checkedTrigger(runLast), accept: running.accept }), running.layer))
      yield* TestClock.adjust("1 minute")
      yield* Fiber.interrupt(second)
      expect([...running.runs.keys()]).toEqual([iso("2026-06-01T12:07:00Z"), iso("2026-06-01T12:08:00Z")])
      expect(running.runs.get(iso("2026-06-01T12:07:00Z"))!.firedAt).toBe(iso("2026-06-01T12:07:30Z"))
      expect(running.lines.join("\n")).toContain("↻ 4 ticks came due while nothing served tick: the newest (2026-06-01T12:07:00.000Z) runs once")

      // A cursor of other parameters is another trigger's: nothing was missed.
      yield* TestClock.setTime(new Date("2026-06-01T12:09:30Z").getTime())
      const other = memory({ cursor: { lastTick: iso("2026-06-01T12:03:00Z") }, parameters: { cron: "0 */2 * * * *", missed: "runLast" } })
      const third = yield* Effect.fork(Effect.provide(ScheduleTrigger.keep({ name: "tick", checked: checkedTrigger(runLast), accept: other.accept }), other.layer))
      yield* TestClock.adjust("30 seconds")
      yield* Fiber.interrupt(third)
      expect([...other.runs.keys()]).toEqual([iso("2026-06-01T12:10:00Z")])
      expect(other.lines.join("\n")).not.toContain("came due")
    }))

  it.effect("taken over from a live runner (on PostgreSQL): the ticks that came due meanwhile all run, each once, whatever missed says", () =>
    Effect.gen(function*() {
      const parameters = { cron: "*/1 * * * * *" }
      // The keeper moved: its last runner stored 12:00:02, this one starts at 12:00:04.500.
      yield* TestClock.setTime(new Date("2026-06-01T12:00:04.500Z").getTime())
      const store = memory({ cursor: { lastTick: iso("2026-06-01T12:00:02Z") }, parameters })
      const fiber = yield* Effect.fork(Effect.provide(
        ScheduleTrigger.keep({ name: "tick", checked: checkedTrigger(parameters), accept: store.accept, takenOver: Effect.succeed(true) }),
        store.layer
      ))
      yield* TestClock.adjust("1 second")
      yield* Fiber.interrupt(fiber)
      expect([...store.runs.keys()]).toEqual([3, 4, 5].map((s) => iso(`2026-06-01T12:00:0${s}.000Z`)))
      expect(store.lines.join("\n")).toContain("↻ 2 ticks came due while tick moved between runners: each runs")
      expect(store.lines.join("\n")).not.toContain("skipped")
    }))

  it.effect("taken over before the first tick's cursor was stored: the newest tick accepted says where the schedule is, and none after it is lost", () =>
    Effect.gen(function*() {
      const parameters = { cron: "*/1 * * * * *", missed: "runLast" }
      // The keeper before ran its first tick, 12:00:01, and was stopped before its cursor was
      // stored; this one starts at 12:00:04.500 with no cursor. A run of something else is not a tick.
      yield* TestClock.setTime(new Date("2026-06-01T12:00:04.500Z").getTime())
      const store = memory()
      const keep = (lastAccepted: string | undefined) =>
        ScheduleTrigger.keep({
          name: "tick",
          checked: checkedTrigger(parameters),
          accept: store.accept,
          takenOver: Effect.succeed(true),
          lastAccepted: Effect.succeed(lastAccepted)
        })
      const fiber = yield* Effect.fork(Effect.provide(keep(iso("2026-06-01T12:00:01Z")), store.layer))
      yield* TestClock.adjust("1 second")
      yield* Fiber.interrupt(fiber)
      expect([...store.runs.keys()]).toEqual([2, 3, 4, 5].map((s) => iso(`2026-06-01T12:00:0${s}.000Z`)))
      expect(store.lines.join("\n")).toContain("↻ 3 ticks came due while tick moved between runners: each runs")
      // An event id that is no tick of this schedule (half a second) is not taken for one: a first start.
      const other = memory()
      const first = yield* Effect.fork(Effect.provide(
        ScheduleTrigger.keep({ name: "tick", checked: checkedTrigger(parameters), accept: other.accept, takenOver: Effect.succeed(true), lastAccepted: Effect.succeed("2026-06-01T12:00:05.500Z") }),
        other.layer
      ))
      yield* TestClock.adjust("1 second")
      yield* Fiber.interrupt(first)
      expect([...other.runs.keys()]).toEqual([iso("2026-06-01T12:00:06.000Z")])
    }))

  it.effect("restarted alone before the first tick's cursor was stored: the newest tick accepted stands for the cursor, and missed applies", () =>
    Effect.gen(function*() {
      // This runner ran the first tick, 12:00:01, and was stopped before its cursor was stored
      // (the embedded database: no other runner); it starts again at 12:00:04.500.
      const started = (parameters: Record<string, unknown>, store: ReturnType<typeof memory>) =>
        ScheduleTrigger.keep({ name: "tick", checked: checkedTrigger(parameters), accept: store.accept, lastAccepted: Effect.succeed(iso("2026-06-01T12:00:01Z")) })

      yield* TestClock.setTime(new Date("2026-06-01T12:00:04.500Z").getTime())
      const runLast = { cron: "*/1 * * * * *", missed: "runLast" }
      const running = memory()
      const first = yield* Effect.fork(Effect.provide(started(runLast, running), running.layer))
      yield* TestClock.adjust("1 second")
      yield* Fiber.interrupt(first)
      expect([...running.runs.keys()]).toEqual([4, 5].map((s) => iso(`2026-06-01T12:00:0${s}.000Z`)))
      expect(running.lines.join("\n")).toContain("↻ 3 ticks came due while nothing served tick: the newest (2026-06-01T12:00:04.000Z) runs once")

      yield* TestClock.setTime(new Date("2026-06-01T12:00:04.500Z").getTime())
      const skipping = memory()
      const second = yield* Effect.fork(Effect.provide(started({ cron: "*/1 * * * * *" }, skipping), skipping.layer))
      yield* TestClock.adjust("1 second")
      yield* Fiber.interrupt(second)
      expect([...skipping.runs.keys()]).toEqual([iso("2026-06-01T12:00:05.000Z")])
      expect(skipping.lines.join("\n")).toContain("○ 3 ticks came due while nothing served tick: skipped")

      // The stored state is of another schedule: the workflow's schedule changed, and starts afresh.
      yield* TestClock.setTime(new Date("2026-06-01T12:00:04.500Z").getTime())
      const changed = memory({ cursor: { lastTick: iso("2026-06-01T12:00:00Z") }, parameters: { cron: "0 * * * * *", missed: "runLast" } })
      const third = yield* Effect.fork(Effect.provide(started(runLast, changed), changed.layer))
      yield* TestClock.adjust("1 second")
      yield* Fiber.interrupt(third)
      expect([...changed.runs.keys()]).toEqual([iso("2026-06-01T12:00:05.000Z")])
      expect(changed.lines.join("\n")).not.toContain("came due")
    }))

  it.effect("runLast after a long stop of a frequent schedule runs the newest tick, not the last one counted", () =>
    Effect.gen(function*() {
      const parameters = { cron: "* * * * * *", missed: "runLast" }
      yield* TestClock.setTime(new Date("2026-06-04T12:00:00.500Z").getTime())
      // Three days of every second: more than are counted one by one.
      const store = memory({ cursor: { lastTick: iso("2026-06-01T12:00:00Z") }, parameters })
      const fiber = yield* Effect.fork(Effect.provide(ScheduleTrigger.keep({ name: "tick", checked: checkedTrigger(parameters), accept: store.accept }), store.layer))
      yield* TestClock.adjust("1 second")
      yield* Fiber.interrupt(fiber)
      expect([...store.runs.keys()]).toEqual([iso("2026-06-04T12:00:00Z"), iso("2026-06-04T12:00:01Z")])
      expect(store.lines.join("\n")).toContain("↻ 10000 or more ticks came due while nothing served tick: the newest (2026-06-04T12:00:00.000Z) runs once")
    }))

  it.effect("a tick already accepted (another runner fired it) is not run twice; the next ones go on", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(new Date("2026-06-01T12:00:00.500Z").getTime())
      const store = memory()
      store.runs.set(iso("2026-06-01T12:00:01Z"), { scheduledAt: iso("2026-06-01T12:00:01Z"), firedAt: iso("2026-06-01T12:00:01Z") })
      const fiber = yield* Effect.fork(Effect.provide(ScheduleTrigger.keep({ name: "tick", checked: checkedTrigger({ cron: "* * * * * *" }), accept: store.accept }), store.layer))
      yield* TestClock.adjust("2 seconds")
      yield* Fiber.interrupt(fiber)
      expect(store.accepted).toEqual([iso("2026-06-01T12:00:01Z"), iso("2026-06-01T12:00:02Z")])
      expect(store.lines.join("\n")).toContain("= tick 2026-06-01T12:00:01.000Z was already run")
      expect(store.runs.size).toBe(2)
    }))

  it.effect("across the autumn change, a daily 02:30 Berlin tick fires once that night, at 02:30 summer time, and the next night at 02:30 winter time", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(new Date("2026-10-24T12:00:00Z").getTime())
      const store = memory()
      const fiber = yield* Effect.fork(Effect.provide(
        ScheduleTrigger.keep({ name: "tick", checked: checkedTrigger({ cron: "0 30 2 * * *", timezone: "Europe/Berlin" }), accept: store.accept }),
        store.layer
      ))
      yield* TestClock.adjust("2 days")
      yield* Fiber.interrupt(fiber)
      expect([...store.runs.keys()]).toEqual([iso("2026-10-25T00:30:00Z"), iso("2026-10-26T01:30:00Z")])
      expect([...store.runs.keys()].map((tick) => inBerlin(new Date(tick)))).toEqual(["Sun, 25/10/2026, 02:30", "Mon, 26/10/2026, 02:30"])
    }))

  it.effect("a tick more than 24.8 days away still fires: waits are cut into hours (Effect's clock never wakes from one past 2^31 ms)", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(new Date("2026-01-05T00:00:00Z").getTime())
      const store = memory()
      const fiber = yield* Effect.fork(Effect.provide(ScheduleTrigger.keep({ name: "tick", checked: checkedTrigger({ cron: "0 0 1 2 *" }), accept: store.accept }), store.layer))
      yield* TestClock.adjust("27 days")
      yield* Fiber.interrupt(fiber)
      expect([...store.runs.keys()]).toEqual([iso("2026-02-01T00:00:00Z")])
    }))
})
