/**
 * Reads and writes of the runner's own database that a run cannot go on without: retried a
 * while (the database restarting, a lock held), then a defect (the run resumes later).
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"

const storeRetry = Schedule.exponential("100 millis").pipe(Schedule.union(Schedule.spaced("5 seconds")), Schedule.upTo("1 minute"))

/** Retried on failure, for up to a minute. The retry's state is made after a first failure only: most calls succeed at once, thousands a second. */
export const retried = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.catchAll(effect, () => Effect.retry(effect, storeRetry))

/** Retried, then a defect. */
export const persistently = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, never, R> => Effect.orDie(retried(effect))
