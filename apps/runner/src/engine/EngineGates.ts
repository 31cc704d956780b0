/**
 * One rate limiter per runner on the embedded database: the serving thread's requests (a
 * trigger reading what a delivery names, e.g. `newCard` reading the card) take their tokens
 * from the engine thread's limiter, where the runs' steps take theirs, so that both threads
 * together keep to a credential's limit. A gate asked before the engine's thread is up waits
 * for it; once that thread is gone, the gates are paced in the serving thread. (On PostgreSQL
 * both threads use the limiter kept in the database, `SharedRateLimiter`.)
 *
 * @since 0.3.0
 */
import { RateLimiter } from "@x/core"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"

/**
 * A limit as it crosses to the other thread: its interval in milliseconds (a `Duration` does
 * not survive the copy).
 *
 * @since 0.3.0
 * @category models
 */
export interface Limit {
  readonly scope: string
  readonly limit: number
  readonly interval: number
  readonly credential: string
}

/**
 * The serving thread's side.
 *
 * @since 0.3.0
 * @category models
 */
export interface EngineGates {
  /** The limiter the serving thread's connections use. */
  readonly limiter: RateLimiter.RateLimiter
  /** The engine's thread is up: `send` asks it for gate `id`; the gates asked before go now. */
  readonly connect: (send: (id: number, limits: ReadonlyArray<Limit>) => void) => void
  /** The engine's thread gave gate `id`. */
  readonly gated: (id: number) => void
  /** The engine's thread is gone: the gates waiting, and any later, are paced here. */
  readonly disconnect: () => void
}

/**
 * The serving thread's gates, forwarded once connected.
 *
 * @since 0.3.0
 * @category constructors
 */
export const make = (): EngineGates => {
  const waiting = new Map<number, { readonly limits: ReadonlyArray<Limit>; readonly resume: () => void }>()
  let send: ((id: number, limits: ReadonlyArray<Limit>) => void) | undefined
  let local: RateLimiter.RateLimiter | undefined
  let next = 0
  const paceHere = (limits: ReadonlyArray<Limit>, resume: () => void) => Effect.runFork(Effect.ensuring(local!.gate(limits), Effect.sync(resume)))
  return {
    limiter: {
      gate: (limits) =>
        limits.length === 0 ? Effect.void : Effect.async<void>((resume) => {
          const copied = limits.map((limit) => ({
            scope: limit.scope,
            limit: limit.limit,
            interval: Duration.toMillis(Duration.decode(limit.interval)),
            credential: limit.credential
          }))
          const done = () => resume(Effect.void)
          if (local !== undefined) return void paceHere(copied, done)
          const id = next++
          waiting.set(id, { limits: copied, resume: done })
          send?.(id, copied)
        })
    },
    connect: (sender) => {
      send = sender
      for (const [id, { limits }] of waiting) sender(id, limits)
    },
    gated: (id) => {
      const gate = waiting.get(id)
      waiting.delete(id)
      gate?.resume()
    },
    disconnect: () => {
      send = undefined
      local ??= RateLimiter.make()
      for (const { limits, resume } of waiting.values()) paceHere(limits, resume)
      waiting.clear()
    }
  }
}

/**
 * The engine thread's side: gate `limits` through this thread's limiter (the one its own
 * connections use).
 *
 * @since 0.3.0
 * @category constructors
 */
export const gate = (limits: ReadonlyArray<Limit>): Effect.Effect<void> =>
  Effect.flatMap(RateLimiter.RateLimiters, (limiter) => limiter.gate(limits))
