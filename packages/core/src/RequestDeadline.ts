/**
 * The time-limit contract between `ProviderClient` and the `HttpClient` that sends its
 * requests.
 *
 * A `ProviderClient` limits each attempt. With an HttpClient that is `DeadlineAware` (as
 * `@x/http-undici`'s is), the limit costs no fiber, timer or AbortController: just before the
 * request is executed its fiber is given a `RequestDeadline`; the client `take`s it when it
 * dispatches the request on that fiber and sets `abort`, which core's watchdog calls once the
 * deadline has passed. Any other HttpClient is limited by interrupting the request
 * (`Effect.timeoutFail`), which clients built with `HttpClient.make` (fetch,
 * `@effect/platform-node`) turn into an abort of the request on the wire.
 *
 * @since 0.2.0
 */
import type * as Fiber from "effect/Fiber"
import * as internal from "./internal/requestDeadline.js"

/**
 * Marks an HttpClient that takes request deadlines natively (see `deadlineAware`).
 *
 * @since 0.2.0
 * @category type ids
 */
export const TypeId: unique symbol = Symbol("@x/core/RequestDeadline")

/**
 * The type of `TypeId`.
 *
 * @since 0.2.0
 * @category type ids
 */
export type TypeId = typeof TypeId

/**
 * The deadline of one request, as the HttpClient that sends it sees it.
 *
 * @since 0.2.0
 * @category models
 */
export interface RequestDeadline {
  /** True once the deadline has passed: a client that takes the deadline late aborts at once. */
  readonly expired: boolean
  /**
   * Set by the HttpClient to abort the request it is sending; called when the deadline passes,
   * and when the fiber sending the request is interrupted: a client that took
   * the deadline needs no interruption handler of its own to abort the request.
   */
  abort: (() => void) | undefined
}

/**
 * An HttpClient that takes its requests' deadlines (`take`) and aborts them itself.
 *
 * @since 0.2.0
 * @category models
 */
export interface DeadlineAware {
  readonly [TypeId]: TypeId
}

/**
 * Whether an HttpClient is `DeadlineAware`.
 *
 * @since 0.2.0
 * @category guards
 */
export const isDeadlineAware = (client: unknown): client is DeadlineAware =>
  typeof client === "object" && client !== null && (client as Partial<DeadlineAware>)[TypeId] === TypeId

/**
 * Declares an HttpClient `DeadlineAware`: it promises to `take` the deadline of every request
 * it executes, on the fiber that executes it.
 *
 * @since 0.2.0
 * @category constructors
 */
export const deadlineAware = <C extends object>(client: C): C & DeadlineAware =>
  Object.assign(client, { [TypeId]: TypeId } as const)

/**
 * The deadline of the request this fiber is about to send, if it has one; it is taken, so a
 * request made later on the same fiber does not get it.
 *
 * @since 0.2.0
 * @category utils
 */
export const take = (fiber: Fiber.RuntimeFiber<any, any>): RequestDeadline | undefined => {
  const deadline = internal.pending.get(fiber)
  if (deadline !== undefined) internal.pending.delete(fiber)
  return deadline
}
