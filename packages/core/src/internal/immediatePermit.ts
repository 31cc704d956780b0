/**
 * A rate-limit permit taken and given back within the caller's own fiber step, for the
 * in-memory store (whose calls need no effect): `ProviderClient` takes a free token and gives it
 * back at the answer without an effect of its own around either, two of a request's fiber steps
 * each. Any other store, or a token that must be waited for, goes through the limiter's effect.
 */
import type * as Effect from "effect/Effect"
import type * as Fiber from "effect/Fiber"

/** @internal A permit taken now: `releaseNow` gives it back in the caller's step (once). */
export interface ImmediatePermit {
  readonly _tag: "Now"
  readonly release: Effect.Effect<void>
  readonly releaseNow: (fiber: Fiber.RuntimeFiber<any, any>) => void
}

/** @internal What a take gives: a permit now, or the effect that waits for one. */
export type Taken = ImmediatePermit | { readonly _tag: "Later"; readonly wait: Effect.Effect<{ readonly release: Effect.Effect<void> }> }

/** @internal Takes on the fiber's step. */
export type TakeNow = (fiber: Fiber.RuntimeFiber<any, any>) => Taken

/**
 * @internal Takes a token free now on the fiber's step, or none: nothing is reserved when none
 * is free (where `TakeNow` reserves one for its wait), so a caller that cannot wait here leaves
 * no trace by asking.
 */
export type TakeFree = (fiber: Fiber.RuntimeFiber<any, any>) => ImmediatePermit | undefined

interface Takers {
  readonly now: TakeNow
  readonly free: TakeFree
}

const takers = new WeakMap<object, Takers>()

/** @internal Declares the immediate forms of a limiter's take effect. */
export const register = <T extends object>(take: T, now: TakeNow, free: TakeFree): T => {
  takers.set(take, { now, free })
  return take
}

/** @internal The immediate form of a take effect, when its store has one. */
export const of = (take: object): TakeNow | undefined => takers.get(take)?.now

/** @internal The free-token-only form of a take effect, when its store has one. */
export const freeOf = (take: object): TakeFree | undefined => takers.get(take)?.free
