/**
 * One rate limiter per runner on the embedded database: the serving thread's requests (a
 * trigger reading what a delivery names, e.g. `newCard` reading the card) take and give back
 * their tokens in the engine thread's store, where the runs' steps take theirs, so that both
 * threads together keep to a credential's limit. The serving thread's limiter is core's, on a
 * store that forwards each take and release to the engine's thread (`serve` answers them
 * there); it waits for its start in its own thread. A take asked before the engine's thread is
 * up waits for it; once that thread is gone, the serving thread keeps its tokens in a store of
 * its own. (On PostgreSQL both threads use the store kept in the database, `SharedRateLimiter`.)
 *
 * @since 0.3.0
 */
import { RateLimiter } from "@x/core"
import * as Effect from "effect/Effect"

/**
 * A store's call as it crosses to the engine's thread (buckets are plain data).
 *
 * @since 0.5.0
 * @category models
 */
export type Request =
  | { readonly _tag: "take"; readonly id: number; readonly buckets: ReadonlyArray<RateLimiter.Bucket>; readonly holder: string }
  | { readonly _tag: "release"; readonly buckets: ReadonlyArray<RateLimiter.Bucket>; readonly holder: string; readonly sent: boolean }

/**
 * The serving thread's side.
 *
 * @since 0.3.0
 * @category models
 */
export interface EngineGates {
  /** The limiter the serving thread's connections use. */
  readonly limiter: RateLimiter.RateLimiter
  /** The engine's thread is up: `send` asks it; the takes asked before go now. */
  readonly connect: (send: (request: Request) => void) => void
  /** The engine's thread answered take `id`. */
  readonly taken: (id: number, taken: RateLimiter.Taken) => void
  /** The engine's thread is gone: the takes waiting, and any later, use a store here. */
  readonly disconnect: () => void
}

/**
 * The serving thread's limiter, forwarded once connected.
 *
 * @since 0.3.0
 * @category constructors
 */
export const make = (): EngineGates => {
  const waiting = new Map<number, { readonly request: Request & { readonly _tag: "take" }; readonly resume: (taken: Effect.Effect<RateLimiter.Taken>) => void }>()
  let send: ((request: Request) => void) | undefined
  let local: RateLimiter.RateLimiterStore | undefined
  let next = 0
  const store: RateLimiter.RateLimiterStore = {
    take: (buckets, holder) =>
      Effect.suspend(() => {
        if (local !== undefined) return local.take(buckets, holder)
        return Effect.async<RateLimiter.Taken>((resume) => {
          const request = { _tag: "take", id: next++, buckets, holder } as const
          waiting.set(request.id, { request, resume })
          send?.(request)
        })
      }),
    // Tokens taken there are given back there; after that thread is gone, none is held there.
    release: (buckets, holder, sent) =>
      Effect.suspend(() =>
        local !== undefined ? local.release(buckets, holder, sent) : Effect.sync(() => send?.({ _tag: "release", buckets, holder, sent }))
      )
  }
  return {
    limiter: RateLimiter.make(store),
    connect: (sender) => {
      send = sender
      for (const { request } of waiting.values()) sender(request)
    },
    taken: (id, taken) => {
      const take = waiting.get(id)
      waiting.delete(id)
      take?.resume(Effect.succeed(taken))
    },
    disconnect: () => {
      send = undefined
      const own = local ??= RateLimiter.memoryStore()
      for (const { request, resume } of waiting.values()) resume(own.take(request.buckets, request.holder))
      waiting.clear()
    }
  }
}

/**
 * The engine thread's side: applies a request to this thread's store (the one its own
 * connections' limiter uses), and answers a take with `reply`.
 *
 * @since 0.5.0
 * @category constructors
 */
export const serve = (
  store: RateLimiter.RateLimiterStore,
  request: Request,
  reply: (id: number, taken: RateLimiter.Taken) => void
): Effect.Effect<void> =>
  request._tag === "take"
    ? Effect.flatMap(store.take(request.buckets, request.holder), (taken) => Effect.sync(() => reply(request.id, taken)))
    : store.release(request.buckets, request.holder, request.sent)
