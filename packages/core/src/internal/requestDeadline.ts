/** The deadlines handed from `ProviderClient` to a deadline-aware HttpClient, one per sending fiber. */
import type * as Fiber from "effect/Fiber"

/** @internal See `RequestDeadline.RequestDeadline`. */
export interface Deadline {
  expired: boolean
  abort: (() => void) | undefined
}

/** @internal The deadline of the request each fiber is about to send. */
export const pending = new WeakMap<Fiber.RuntimeFiber<any, any>, Deadline>()
