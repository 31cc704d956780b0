/**
 * Time limits for in-flight requests without a timer per request.
 *
 * `Effect.timeout` races each request against its own timer, two child fibers and a timer
 * set and cleared per call, which costs about as much as a fast request itself. Here each
 * attempt runs in one child fiber and registers its deadline; one watchdog fiber per client,
 * running only while attempts are in flight, wakes every `tick` and interrupts the attempts
 * whose deadline has passed (which aborts their HTTP requests). It sleeps on the Clock, so
 * time limits run on `TestClock` in tests. A limit is enforced within one tick of its deadline.
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"

interface Watch {
  readonly deadline: number
  readonly fiber: Fiber.RuntimeFiber<unknown, unknown>
  expired: boolean
}

export interface Watchdog {
  /** Runs `effect` with a time limit; past it, `effect` is interrupted and `onExpired()` is the failure. */
  readonly limit: <A, E, R, E2>(
    timeout: Duration.Duration,
    effect: Effect.Effect<A, E, R>,
    onExpired: () => E2
  ) => Effect.Effect<A, E | E2, R>
}

export const make = (tick: Duration.DurationInput): Watchdog => {
  const tickMillis = Math.max(1, Duration.toMillis(Duration.decode(tick)))
  const watches = new Set<Watch>()
  let running = false

  const sweep = Effect.flatMap(Clock.currentTimeMillis, (now) => {
    const expired: Array<Watch> = []
    for (const watch of watches) {
      if (watch.deadline <= now) {
        watch.expired = true
        watches.delete(watch)
        expired.push(watch)
      }
    }
    return Effect.forEach(expired, (watch) => Fiber.interruptFork(watch.fiber), { discard: true })
  })
  // Runs while attempts are in flight; the next attempt after it stopped starts it again.
  const loop: Effect.Effect<void> = Effect.zipRight(
    Effect.sleep(Duration.millis(tickMillis)),
    Effect.suspend(() => {
      if (watches.size === 0) {
        running = false
        return Effect.void
      }
      return Effect.zipRight(sweep, loop)
    })
  )

  return {
    limit: <A, E, R, E2>(timeout: Duration.Duration, effect: Effect.Effect<A, E, R>, onExpired: () => E2) =>
      Effect.flatMap(Effect.zip(Clock.currentTimeMillis, Effect.fork(effect)), ([now, fiber]) => {
        const watch: Watch = { deadline: now + Duration.toMillis(timeout), fiber, expired: false }
        watches.add(watch)
        const start = running ? Effect.void : Effect.asVoid(Effect.forkDaemon(loop))
        running = true
        return Effect.zipRight(
          start,
          Effect.flatMap(Fiber.await(fiber), (exit): Effect.Effect<A, E | E2> => {
            watches.delete(watch)
            return watch.expired && Exit.isInterrupted(exit) ? Effect.fail(onExpired()) : exit
          })
        )
      })
  }
}
