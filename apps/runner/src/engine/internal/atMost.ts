/**
 * Waits for an effect at most a while, from a finalizer too. A finalizer runs uninterruptibly,
 * so `Effect.timeout` there cannot end the wait (its loser is not interruptible), and making the
 * wait interruptible lets the pending interruption that closes the scope end it at once. Here
 * both the wait and the time limit run in fibers of their own, made interruptible (a forked
 * fiber inherits its parent's uninterruptibility), and whichever ends first ends the wait.
 */
import * as Deferred from "effect/Deferred"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"

/** Waits for `wait` to end, or for `limit` to pass, whichever comes first; never fails. */
export const atMost = <A, E>(wait: Effect.Effect<A, E>, limit: Duration.DurationInput): Effect.Effect<void> =>
  Effect.gen(function*() {
    const done = yield* Deferred.make<void>()
    const end = Deferred.succeed(done, undefined)
    const waiting = yield* Effect.forkDaemon(Effect.interruptible(Effect.ensuring(Effect.ignore(wait), end)))
    const timer = yield* Effect.forkDaemon(Effect.interruptible(Effect.zipRight(Effect.sleep(limit), end)))
    yield* Deferred.await(done)
    yield* Fiber.interrupt(waiting)
    yield* Fiber.interrupt(timer)
  })
