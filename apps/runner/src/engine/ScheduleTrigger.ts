/**
 * `serve` for a schedule trigger (`schedule/v1/cron`): waits on the `Clock` for each tick of its
 * cron and accepts it as a run whose event id is the tick's time (ISO 8601, UTC), so a tick is
 * one run however often it is fired: by this runner again after a restart, or by another runner
 * (on PostgreSQL the keeper is the cluster's singleton; the run id makes a second firing the same
 * run anyway). After each tick the last one accepted is stored as the trigger's cursor
 * (`TriggerStore`, with the trigger's type and parameters); at start, the ticks that came due
 * since it were missed while nothing served the workflow: skipped, or the newest run once
 * (the trigger's `missed`). A first start (no cursor, or another trigger's) misses nothing.
 * Ticks that come due while it is served all run, even late, including while the schedule
 * moves between live runners (on PostgreSQL, a keeper that starts while others are alive took
 * it over: the ticks since the stored one all run, each once).
 *
 * @since 0.7.0
 */
import type { Trigger } from "@x/core"
import * as Clock from "effect/Clock"
import type * as Cron from "effect/Cron"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import { tickAfter } from "../components/ScheduleComponent.js"
import { Output } from "../Output.js"
import type * as RunStore from "../store/RunStore.js"
import { TriggerStore } from "../store/TriggerStore.js"
import type * as Workflow from "../workflow/Workflow.js"
import type { PollState } from "./PollingTrigger.js"

/** The cursor stored: the last tick accepted. */
interface Cursor {
  readonly lastTick: string
}

const isCursor = (value: unknown): value is Cursor =>
  typeof value === "object" && value !== null && typeof (value as Cursor).lastTick === "string" &&
  !Number.isNaN(Date.parse((value as Cursor).lastTick))

/** The longest sleep before the time is read again. */
const longestSleep = 60 * 60_000

/** At most this many missed ticks are counted one by one (a long stop of a frequent schedule). */
const countedAtMost = 10_000

/** The ticks after `after` up to `now` included, counted up to `countedAtMost`, and the newest of those counted. */
const counted = (cron: Cron.Cron, after: Date, now: Date) => {
  let count = 0
  let newest: Date | undefined
  let tick = tickAfter(cron, after)
  while (tick.getTime() <= now.getTime() && count < countedAtMost) {
    count++
    newest = tick
    tick = tickAfter(cron, tick)
  }
  return { count, newest }
}

/** Whether an event id is one of this schedule's ticks (an ISO time the cron fires at): a run of another schedule is not. */
const isTick = (cron: Cron.Cron, id: string): boolean => {
  const at = Date.parse(id)
  return !Number.isNaN(at) && new Date(at).toISOString() === id && tickAfter(cron, new Date(at - 1)).getTime() === at
}

/**
 * The ticks after `after` up to `now` included: how many (`countedAtMost` standing for that many
 * or more), and the newest.
 *
 * @since 0.7.0
 * @category utils
 */
export const dueBetween = (cron: Cron.Cron, after: Date, now: Date): { readonly count: number; readonly newest: Date | undefined } => {
  const all = counted(cron, after, now)
  if (all.count < countedAtMost) return all
  // Too many to walk through: the newest is in the latest window that has a tick (a minute holds
  // at most 60 ticks, so it is found exactly there for any schedule that frequent).
  for (const window of [60_000, 3_600_000, 86_400_000, 366 * 86_400_000]) {
    const recent = counted(cron, new Date(Math.max(after.getTime(), now.getTime() - window)), now)
    if (recent.newest !== undefined) return { count: countedAtMost, newest: recent.newest }
  }
  return all
}

/**
 * Keeps the workflow's schedule until interrupted.
 *
 * @since 0.7.0
 * @category constructors
 */
export const keep = (options: {
  readonly name: string
  readonly checked: Workflow.CheckedTrigger
  readonly accept: (name: string, event: { readonly id: string; readonly output: Trigger.Tick }) => Effect.Effect<{ readonly fresh: boolean }, RunStore.StoreFailed>
  /** Told when this runner starts or stops keeping the schedule. */
  readonly report?: ((state: PollState, message?: string) => Effect.Effect<void>) | undefined
  /** Whether this keeper takes the schedule over from another live runner (its ticks since were not missed). */
  readonly takenOver?: Effect.Effect<boolean> | undefined
  /**
   * The id (its `scheduledAt`) of the newest tick accepted for the workflow, if any: a keeper
   * stopped between a tick's run and its cursor (its first: no cursor yet) left it only there.
   */
  readonly lastAccepted?: Effect.Effect<string | undefined> | undefined
}): Effect.Effect<never, never, Output | TriggerStore> =>
  Effect.gen(function*() {
    const { checked, name } = options
    const triggers = yield* TriggerStore
    const say = (yield* Output).err
    const prepared = checked.prepared
    const definition = prepared.trigger as Trigger.ScheduleTrigger
    const type = prepared.step.type
    const cron = definition.cron(prepared.params as never)
    const missed = definition.missed(prepared.params as never)
    const report = options.report ?? (() => Effect.void)

    // Read until it can be: starting without the cursor would not know what was missed.
    const stored = yield* triggers.get(name).pipe(
      Effect.tapError((error) => say(`✘ ${error.message}; trying again`)),
      Effect.retry(Schedule.spaced("2 seconds")),
      Effect.orDie
    )
    const ours = Option.filter(stored, (record) => record.type === type && JSON.stringify(record.parameters) === JSON.stringify(checked.parameters))
    const cursor = Option.flatMap(ours, (record) =>
      Option.isSome(record.cursor) && isCursor(record.cursor.value) ? Option.some(new Date(record.cursor.value.lastTick)) : Option.none())

    /** Accepts a tick (until the store takes it: a tick is not dropped for a storage fault), then stores it as the cursor. */
    const fire = (tick: Date) =>
      Effect.gen(function*() {
        const scheduledAt = tick.toISOString()
        const firedAt = new Date(yield* Clock.currentTimeMillis).toISOString()
        const { fresh } = yield* options.accept(name, { id: scheduledAt, output: { scheduledAt, firedAt } }).pipe(
          Effect.tapError((error) => say(`✘ the tick ${scheduledAt} could not be recorded (${error.message}); trying again`)),
          Effect.retry(Schedule.spaced("1 second")),
          // Retried forever: it never fails here.
          Effect.orDie
        )
        yield* say(fresh ? `· tick ${scheduledAt}: run started` : `= tick ${scheduledAt} was already run (before a restart, or by another runner): not run twice`)
        yield* Effect.catchAll(
          triggers.polled({ workflow: name, type, parameters: checked.parameters, cursor: { lastTick: scheduledAt } satisfies Cursor }),
          (error) => say(`✘ the last tick could not be stored (${error.message}): a restart may count it missed`)
        )
      })

    const now = new Date(yield* Clock.currentTimeMillis)
    let last = now
    const takenOver = yield* options.takenOver ?? Effect.succeed(false)
    // No cursor stored: the keeper before (another runner's, or this one's before a restart) may
    // have been stopped between its first tick's run and its cursor; that run says where the
    // schedule is. A restarted keeper whose stored state is of other parameters starts afresh (the
    // schedule changed); one that took over from another keeper still goes by that keeper's run.
    const accepted = Option.isNone(cursor) && (takenOver || Option.isNone(stored) || Option.isSome(ours))
      ? Option.filter(Option.fromNullable(yield* options.lastAccepted ?? Effect.succeed(undefined)), (id) => isTick(cron, id))
      : Option.none()
    const since = Option.orElse(cursor, () => Option.map(accepted, (id) => new Date(id)))
    const handedOver = Option.isSome(since) && takenOver
    const due = Option.isSome(since) && handedOver ? dueBetween(cron, since.value, now) : undefined
    if (Option.isSome(since) && due !== undefined && due.count < countedAtMost) {
      // Taken over from a live runner: what came due meanwhile was served late, not missed.
      if (due.count > 0) yield* say(`↻ ${due.count} tick${due.count === 1 ? "" : "s"} came due while ${name} moved between runners: each runs`)
      last = since.value
      for (let tick = tickAfter(cron, last); tick.getTime() <= now.getTime(); tick = tickAfter(cron, tick)) {
        yield* fire(tick)
        last = tick
      }
    } else if (Option.isSome(since)) {
      const due = dueBetween(cron, since.value, now)
      if (due.newest !== undefined) {
        const ticks = `${due.count >= countedAtMost ? `${countedAtMost} or more` : due.count} tick${due.count === 1 ? "" : "s"}`
        if (missed === "runLast") {
          yield* say(`↻ ${ticks} came due while nothing served ${name}: the newest (${due.newest.toISOString()}) runs once`)
          yield* fire(due.newest)
        } else yield* say(`○ ${ticks} came due while nothing served ${name}: skipped (missed: "skip")`)
      }
      // The next tick after the stored one, unless that was missed: after now.
      last = due.newest === undefined ? since.value : now
    }
    yield* say(`● ${type} ${name}: next tick ${tickAfter(cron, last).toISOString()}`)
    yield* report("polling")

    const next = Effect.gen(function*() {
      const tick = tickAfter(cron, last)
      // In steps of at most an hour: Effect's clock never wakes from a sleep past 2^31 ms (24.8
      // days: a yearly tick), and a machine's sleep or a clock set by hand is noticed.
      for (let wait = tick.getTime() - (yield* Clock.currentTimeMillis); wait > 0; wait = tick.getTime() - (yield* Clock.currentTimeMillis)) {
        yield* Effect.sleep(Duration.millis(Math.min(wait, longestSleep)))
      }
      yield* fire(tick)
      last = tick
    })
    return yield* Effect.forever(next).pipe(Effect.ensuring(report("stopped")))
  })
