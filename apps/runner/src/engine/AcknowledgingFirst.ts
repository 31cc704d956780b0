/**
 * Acknowledging first: while the thread that receives deliveries is busy, the embedded engine's
 * handoff gives the engine no new runs (the runs already in it go on), so that a burst of
 * deliveries is acknowledged at the pace of the HTTP path and its runs follow at the engine's.
 * On two cores the engine's runs, started as each delivery is committed, took the CPU the
 * acknowledgements needed (RESULTS.md, "acknowledging first").
 *
 * The receiving thread says it is busy (`watch`): its event loop was busy at least half of the
 * last 100 ms and it accepted runs meanwhile. A hold ends when it has not said so for
 * `stillBusyFor`, or after `maxHold` (lulls shorter than that do not start it again); a hold
 * that reached `maxHold` is followed by as long of handing freely, so that under a load that
 * never ends new runs are handed at least half of the time.
 *
 * @since 0.13.0
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { performance } from "node:perf_hooks"

/**
 * What the handoff asks before it hands runs, and what the receiving thread tells it.
 *
 * @since 0.13.0
 * @category models
 */
export interface AcknowledgingFirst {
  /** The receiving thread is busy acknowledging now. */
  readonly busy: Effect.Effect<void>
  /** Whether new runs wait now. */
  readonly holds: Effect.Effect<boolean>
}

/**
 * How long the receiving thread counts as busy after it last said so (it says so every 100 ms
 * while it is).
 *
 * @since 0.13.0
 * @category constants
 */
export const stillBusyFor = Duration.millis(250)

/**
 * The longest a hold lasts; then the runs are handed for as long again, busy or not. A hold
 * goes on through lulls shorter than this: only as long a quiet ends it before its time.
 *
 * @since 0.13.0
 * @category constants
 */
export const maxHold = Duration.seconds(5)

/**
 * The handoff's side. Times are the Clock's monotonic nanoseconds: a wall clock set back does
 * not stretch a hold.
 *
 * @since 0.13.0
 * @category constructors
 */
export const make = (options: { readonly stillBusyFor?: Duration.DurationInput; readonly maxHold?: Duration.DurationInput } = {}): AcknowledgingFirst => {
  const stillBusyMs = Duration.toMillis(options.stillBusyFor ?? stillBusyFor)
  const maxHoldMs = Duration.toMillis(options.maxHold ?? maxHold)
  const nowMs = Effect.map(Clock.currentTimeNanos, (nanos) => Number(nanos / 1_000_000n))
  let lastBusy = Number.NEGATIVE_INFINITY
  let heldSince: number | undefined
  let freeUntil = Number.NEGATIVE_INFINITY
  return {
    busy: Effect.map(nowMs, (now) => void (lastBusy = now)),
    holds: Effect.map(nowMs, (now) => {
      if (now < freeUntil) return false
      if (now - lastBusy >= stillBusyMs) {
        // A quiet as long as a hold ends it; a shorter lull does not start the count again.
        if (now - lastBusy >= maxHoldMs) heldSince = undefined
        return false
      }
      heldSince ??= now
      if (now - heldSince < maxHoldMs) return true
      heldSince = undefined
      freeUntil = now + maxHoldMs
      return false
    })
  }
}

/** How often the receiving thread looks at its event loop, and the share of it that is busy. */
const sampleEvery = Duration.millis(100)
const busyShare = 0.5

/**
 * The receiving thread's side: every 100 ms, `busy` when its event loop was busy at least half
 * of that time (Node's event-loop utilization) and it accepted runs meanwhile (`accepted` says
 * whether it did since it was last asked): a thread busy with something else (the sandbox's
 * simulators answering the runs' steps, the runs page) holds no run. Until the scope ends.
 *
 * @since 0.13.0
 * @category constructors
 */
export const watch = (busy: Effect.Effect<void>, accepted: () => boolean): Effect.Effect<never> =>
  Effect.suspend(() => {
    let last = performance.eventLoopUtilization()
    const look = Effect.suspend(() => {
      const now = performance.eventLoopUtilization()
      const share = performance.eventLoopUtilization(now, last).utilization
      last = now
      return accepted() && share >= busyShare ? busy : Effect.void
    })
    return Effect.forever(Effect.zipRight(Effect.sleep(sampleEvery), look))
  })
