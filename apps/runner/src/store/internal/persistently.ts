/**
 * Reads and writes of the runner's own database that a run cannot go on without: retried for a
 * while (the database restarting, a lock held), and for as long as the database refuses writes
 * (`Database.RunsHealth`: a full disk, until it is freed); then a defect (the run resumes later).
 *
 * @internal
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import { RunsHealth } from "../Database.js"

const storeRetry = Schedule.exponential("100 millis").pipe(Schedule.union(Schedule.spaced("5 seconds")))
const patience = Duration.toMillis(Duration.minutes(1))

/**
 * Retried on failure: for up to a minute, and past it while the database refuses writes. The
 * retry's state is made after a first failure only: most calls succeed at once, thousands a second.
 */
export const retried = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R | RunsHealth> =>
  Effect.catchAll(effect, () =>
    Effect.flatMap(Effect.zip(RunsHealth, Clock.currentTimeMillis), ([health, since]) =>
      Effect.retry(effect, {
        schedule: storeRetry,
        while: () => Effect.zipWith(health.failing, Clock.currentTimeMillis, (failing, now) => Option.isSome(failing) || now - since < patience)
      })))

/** Retried, then a defect. */
export const persistently = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, never, R | RunsHealth> => Effect.orDie(retried(effect))
