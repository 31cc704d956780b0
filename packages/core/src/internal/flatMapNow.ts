/**
 * `Effect.flatMap`, without its step when the effect is already a success (`Effect.succeed`
 * is one: an `Exit`): what a buffered response's body or an opened connection gives. A hot
 * path saves the fiber two steps each time; the result is the same.
 */
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"

/** @internal */
export const flatMapNow = <A, E, R, B, E2, R2>(
  effect: Effect.Effect<A, E, R>,
  f: (a: A) => Effect.Effect<B, E2, R2>
): Effect.Effect<B, E | E2, R | R2> =>
  Exit.isExit(effect) && Exit.isSuccess(effect) ? f((effect as Exit.Success<A, E>).value) : Effect.flatMap(effect, f)
