/**
 * Time limits for in-flight requests without a fiber or a timer per request.
 *
 * `Effect.timeout` races each request against its own timer in two child fibers, which
 * costs more than a fast request itself on loopback. Here each request gets an
 * AbortController that the HttpClient uses for it, and registers its deadline; one watchdog
 * fiber per client, running only while requests are in flight, wakes every `tick` and
 * aborts the requests whose deadline has passed. A request that completes is never aborted
 * (an abort after completion costs undici its connection). The watchdog sleeps on the
 * Clock until the next deadline, at most `tick`, so time limits run on `TestClock` in tests
 * and a limit is enforced within one tick of its deadline.
 *
 * How an abort reaches the HttpClient:
 * - a client that declares `nativeAbort` (as @x/http-undici's does) finds the request's
 *   `Watch` under its fiber in `sending`, and sets `watch.abort`; nothing is allocated;
 * - any other client built with `HttpClient.make` (fetch, @effect/platform-node) gets an
 *   AbortController the way `HttpClient.withScope` hands one over: in the platform's
 *   registry of per-request controllers, filled by the `abortable` transform.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Fiber from "effect/Fiber"
import { globalValue } from "effect/GlobalValue"

// The same WeakMap `HttpClient.withScope` fills (keyed by this global name in @effect/platform).
const scopedRequests = globalValue(
  "@effect/platform/HttpClient/scopedRequests",
  () => new WeakMap<HttpClientRequest.HttpClientRequest, AbortController>()
)

/** The deadline of one request, and how to abort it. */
export interface Watch {
  readonly deadline: number
  expired: boolean
  /** Set by the HttpClient (natively, or through an AbortController) once the request is sent. */
  abort: (() => void) | undefined
}

/** The marker of an HttpClient that aborts through `sending` (see the module's comment). */
export const nativeAbort: unique symbol = Symbol.for("@x/core/Watchdog/nativeAbort") as any

/** The Watch of the request each fiber is about to send (shared by name with @x/http-undici). */
export const sending = globalValue(
  "@x/core/Watchdog/sending",
  () => new WeakMap<Fiber.RuntimeFiber<unknown, unknown>, Watch>()
)

/** Whether this HttpClient aborts requests through `sending`. */
export const hasNativeAbort = (client: HttpClient.HttpClient.With<any, any>): boolean =>
  (client as unknown as Record<symbol, unknown>)[nativeAbort] === true

export interface Watchdog {
  /**
   * The HttpClient whose requests, made inside `limit`, can be aborted by the watchdog.
   * Apply it innermost (before auth transforms), so it sees the request as sent.
   */
  readonly abortable: <E, R>(client: HttpClient.HttpClient.With<E, R>) => HttpClient.HttpClient.With<E, R>
  /**
   * Runs `effect` (which sends one request through an `abortable` client) with a time limit:
   * past it the request is aborted and its failure becomes `onExpired()`.
   */
  readonly limit: <A, E, R, E2>(
    timeout: Duration.Duration,
    effect: Effect.Effect<A, E, R>,
    onExpired: () => E2
  ) => Effect.Effect<A, E | E2, R>
}

export const make = (tick: Duration.DurationInput): Watchdog => {
  const maxSleep = Math.max(1, Duration.toMillis(Duration.decode(tick)))
  const watches = new Set<Watch>()
  let running = false

  // Aborts what has expired; returns how long to sleep: until the next deadline, at most a tick.
  const sweep = Effect.map(Clock.currentTimeMillis, (now) => {
    let next = now + maxSleep
    for (const watch of watches) {
      if (watch.deadline <= now) {
        watch.expired = true
        watches.delete(watch)
        watch.abort?.()
      } else if (watch.deadline < next) {
        next = watch.deadline
      }
    }
    return Math.max(1, next - now)
  })
  // Runs while requests are in flight; the next request after it stopped starts it again.
  const loop: Effect.Effect<void> = Effect.flatMap(sweep, (sleep) => {
    if (watches.size === 0) {
      running = false
      return Effect.void
    }
    return Effect.zipRight(Effect.sleep(Duration.millis(sleep)), loop)
  })

  return {
    abortable: (client) =>
      HttpClient.transform(client, (effect, request) =>
        Effect.withFiberRuntime((fiber) => {
          const watch = sending.get(fiber)
          if (watch !== undefined) {
            sending.delete(fiber)
            const controller = new AbortController()
            watch.abort = () => controller.abort()
            scopedRequests.set(request, controller)
            // With its own controller the platform leaves aborting to us, on interruption too.
            return Effect.onInterrupt(effect, () => Effect.sync(() => controller.abort()))
          }
          return effect
        })),
    limit: <A, E, R, E2>(timeout: Duration.Duration, effect: Effect.Effect<A, E, R>, onExpired: () => E2) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.withFiberRuntime<A, E | E2, R>((fiber): Effect.Effect<A, E | E2, R> => {
          const watch: Watch = { deadline: now + Duration.toMillis(timeout), expired: false, abort: undefined }
          watches.add(watch)
          // A request made while this one is being prepared (an OAuth2 token refresh on the same
          // fiber) registers its own watch; the outer one is put back when it is done.
          const outer = sending.get(fiber)
          sending.set(fiber, watch)
          const done = () => {
            watches.delete(watch)
            if (outer !== undefined) sending.set(fiber, outer)
            else sending.delete(fiber)
          }
          const start = running ? Effect.void : Effect.asVoid(Effect.forkDaemon(loop))
          running = true
          return start.pipe(
            Effect.zipRight(effect),
            Effect.matchCauseEffect({
              onSuccess: (value) => {
                done()
                return Effect.succeed(value)
              },
              onFailure: (cause): Effect.Effect<never, E | E2> => {
                done()
                return watch.expired ? Effect.fail(onExpired()) : Effect.failCause(cause)
              }
            })
          )
        })
      )
  }
}
