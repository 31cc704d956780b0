/**
 * The time on a fiber's Clock, read in the caller's step (no effect around the read): the
 * Clock from the fiber's services, so that `TestClock` drives it in tests.
 *
 * @internal
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import type * as Fiber from "effect/Fiber"

/** @internal */
export const nowOf = (fiber: Fiber.RuntimeFiber<any, any>): number =>
  Context.get(fiber.currentDefaultServices, Clock.Clock).unsafeCurrentTimeMillis()
