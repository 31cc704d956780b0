/**
 * Time limits for in-flight requests without a fiber or a timer per request.
 *
 * `Effect.timeout` races each request against its own timer in two child fibers, which
 * costs more than a fast request itself on loopback. Here each request gets an
 * AbortController that the HttpClient uses for it, and registers its deadline; one watchdog
 * fiber per client, running only while requests are in flight, wakes every `tick` and
 * aborts the requests whose deadline has passed. A request that completes is never aborted
 * (an abort after completion costs undici its connection). The watchdog sleeps on the
 * Clock, so time limits run on `TestClock` in tests; a limit is enforced within one tick.
 *
 * The controller reaches the HttpClient the way `HttpClient.withScope` hands it over: the
 * platform's registry of per-request controllers, which every client built with
 * `HttpClient.make` (fetch, undici) consults.
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

interface Watch {
  readonly deadline: number
  readonly controller: AbortController
  expired: boolean
}

export interface Watchdog {
  /**
   * The HttpClient whose requests, made inside `limit`, can be aborted by the watchdog.
   * Apply it innermost (before auth transforms), so it sees the request as sent.
   */
  readonly abortable: <E, R>(client: HttpClient.HttpClient.With<E, R>) => HttpClient.HttpClient.With<E, R>
  /**
   * Runs `effect` (which sends one request through an `abortable` client) with a time limit:
   * past it the request is aborted and its failure becomes `onExpired()`. Interrupting
   * `effect` aborts the request too.
   */
  readonly limit: <A, E, R, E2>(
    timeout: Duration.Duration,
    effect: Effect.Effect<A, E, R>,
    onExpired: () => E2
  ) => Effect.Effect<A, E | E2, R>
}

export const make = (tick: Duration.DurationInput): Watchdog => {
  const tickMillis = Math.max(1, Duration.toMillis(Duration.decode(tick)))
  const watches = new Set<Watch>()
  // The watch of the request a fiber is about to send; read by `abortable` in the same fiber.
  const sending = new WeakMap<Fiber.RuntimeFiber<unknown, unknown>, Watch>()
  let running = false

  const sweep = Effect.flatMap(Clock.currentTimeMillis, (now) =>
    Effect.sync(() => {
      for (const watch of watches) {
        if (watch.deadline <= now) {
          watch.expired = true
          watches.delete(watch)
          watch.controller.abort()
        }
      }
    }))
  // Runs while requests are in flight; the next request after it stopped starts it again.
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
    abortable: (client) =>
      HttpClient.transform(client, (effect, request) =>
        Effect.withFiberRuntime((fiber) => {
          const watch = sending.get(fiber)
          if (watch !== undefined) {
            sending.delete(fiber)
            scopedRequests.set(request, watch.controller)
          }
          return effect
        })),
    limit: <A, E, R, E2>(timeout: Duration.Duration, effect: Effect.Effect<A, E, R>, onExpired: () => E2) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
      Effect.withFiberRuntime<A, E | E2, R>((fiber): Effect.Effect<A, E | E2, R> => {
        const watch: Watch = {
          deadline: now + Duration.toMillis(timeout),
          controller: new AbortController(),
          expired: false
        }
        watches.add(watch)
        sending.set(fiber, watch)
        const start = running ? Effect.void : Effect.asVoid(Effect.forkDaemon(loop))
        running = true
        return start.pipe(
          Effect.zipRight(effect),
          Effect.matchCauseEffect({
            onSuccess: (value) => {
              watches.delete(watch)
              return Effect.succeed(value)
            },
            onFailure: (cause): Effect.Effect<never, E | E2> => {
              watches.delete(watch)
              if (watch.expired) return Effect.fail(onExpired())
              watch.controller.abort()
              return Effect.failCause(cause)
            }
          })
        )
      }))
  }
}
