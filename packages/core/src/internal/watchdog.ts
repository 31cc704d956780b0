/**
 * Time limits for in-flight requests without a fiber or a timer per request, for HttpClients
 * that are `RequestDeadline.DeadlineAware`.
 *
 * `Effect.timeout` races each request against its own timer in two child fibers, which
 * costs more than a fast request itself on loopback. Here each request registers its
 * deadline, which the HttpClient takes (`RequestDeadline.take`) and fills with its abort; one
 * watchdog fiber per client, running only while requests are in flight, wakes every `tick`
 * and aborts the requests whose deadline has passed. A request that completes is never
 * aborted (an abort after completion costs undici its connection). The watchdog sleeps on the
 * Clock until the next deadline, at most `tick`, so time limits run on `TestClock` in tests
 * and a limit is enforced within one tick of its deadline.
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Fiber from "effect/Fiber"
import { nowOf } from "./fiberNow.js"
import { type Deadline, pending } from "./requestDeadline.js"

/** @internal The deadline of one request, as the watchdog tracks it. */
export interface Watch extends Deadline {
  readonly deadline: number
  /** Where it is in the watchdog's list (-1 once removed). */
  index: number
}

/** @internal An uninterruptible mask's `restore`: what it is given runs interruptible again. */
export type Restore = <X, Y, Z>(effect: Effect.Effect<X, Y, Z>) => Effect.Effect<X, Y, Z>

/** @internal */
export interface Watchdog {
  /**
   * Runs `effect` (which sends one request through a deadline-aware client) with a time
   * limit: past it the request is aborted and its failure becomes `onExpired()`. Called where
   * interruption is masked, `restore` being the mask's: `effect` runs interruptible, and the
   * watch's handler runs when it is interrupted too, dropping the watch and aborting the
   * request on the wire through its deadline (the client needs no canceler of its own).
   * Called as the attempt runs, on `fiber` (the one that sends the request): the watch is
   * registered then, in the caller's step; `onFailure`, if given, runs in the watch's failure
   * handler (the caller's own clean-up, without a handler of its own).
   */
  readonly limit: <A, E, R, E2>(
    fiber: Fiber.RuntimeFiber<any, any>,
    timeout: Duration.Duration,
    effect: Effect.Effect<A, E, R>,
    onExpired: () => E2,
    restore: Restore,
    onFailure?: () => void
  ) => Effect.Effect<A, E | E2, R>
  /**
   * Whether the watchdog's fiber runs now: only then may a request be watched without an
   * effect (`watch`); after it stopped, `start` (or `limit`) starts it again.
   */
  readonly active: () => boolean
  /** Starts the watchdog's fiber unless it runs, in one uninterruptible step (never marked running without it). */
  readonly start: Effect.Effect<void>
  /**
   * Watches a request from the caller's step, for a sender that calls back (no effect around
   * the exchange): its `abort` is the sender's to set; `expired` says, once it has ended,
   * whether the deadline ended it. Only while `active`.
   */
  readonly watch: (fiber: Fiber.RuntimeFiber<any, any>, timeout: Duration.Duration) => Watch
  /** Stops watching a request (it ended, or its fiber was interrupted); once is enough, twice is harmless. */
  readonly unwatch: (watch: Watch) => void
}

/** @internal */
export const make = (tick: Duration.DurationInput): Watchdog => {
  const maxSleep = Math.max(1, Duration.toMillis(Duration.decode(tick)))
  // The requests in flight, in an array (a watch removed swaps the last one into its place),
  // not a Set: a Set that gains and loses an entry a request replaces its table every few dozen
  // requests, and V8 links each replaced table to the next one. Once a table had lived long
  // enough to reach the old generation (the process busy with other work a while), every later
  // table, and every request its entries reached, was kept alive by the dead one before it until
  // the next full collection: the young generation's collections promoted about 1 MB each and
  // took three times as long (`--trace-gc-nvp`, getCollectionItem at concurrency 32).
  const watches: Array<Watch> = []
  const remove = (watch: Watch) => {
    const at = watch.index
    if (at < 0) return
    watch.index = -1
    const last = watches.pop()!
    if (last !== watch) {
      watches[at] = last
      last.index = at
    }
  }
  let running = false
  // In the caller's step: the Clock read from the fiber's services, no effect around the read.
  const watchFrom = (fiber: Fiber.RuntimeFiber<any, any>, timeout: Duration.Duration): Watch => {
    const watch: Watch = { deadline: nowOf(fiber) + Duration.toMillis(timeout), expired: false, abort: undefined, index: watches.length }
    watches.push(watch)
    return watch
  }

  // Aborts what has expired; returns how long to sleep: until the next deadline, at most a tick.
  const sweep = Effect.map(Clock.currentTimeMillis, (now) => {
    let next = now + maxSleep
    // From the end: a removal moves only watches already looked at.
    for (let i = watches.length - 1; i >= 0; i--) {
      const watch = watches[i]
      // An abort that ended other requests at once would have shortened the list under us.
      if (watch === undefined) continue
      if (watch.deadline <= now) {
        watch.expired = true
        remove(watch)
        watch.abort?.()
      } else if (watch.deadline < next) {
        next = watch.deadline
      }
    }
    return Math.max(1, next - now)
  })
  // Runs while requests are in flight; the next request after it stopped starts it again.
  const loop: Effect.Effect<void> = Effect.flatMap(sweep, (sleep) => {
    if (watches.length === 0) {
      running = false
      return Effect.void
    }
    return Effect.zipRight(Effect.sleep(Duration.millis(sleep)), loop)
  })

  // Marked running and forked in one step; the loop itself runs interruptible, as it would
  // without a caller's mask.
  const launch = () => {
    running = true
    return Effect.forkDaemon(Effect.interruptible(loop))
  }

  return {
    limit: <A, E, R, E2>(
      fiber: Fiber.RuntimeFiber<any, any>,
      timeout: Duration.Duration,
      effect: Effect.Effect<A, E, R>,
      onExpired: () => E2,
      restore: Restore,
      onFailure?: () => void
    ): Effect.Effect<A, E | E2, R> => {
      const watch = watchFrom(fiber, timeout)
      // A request made while this one is being prepared (an OAuth2 token refresh on the same
      // fiber) registers its own watch; the outer one is put back when it is done.
      const outer = pending.get(fiber)
      pending.set(fiber, watch)
      const done = () => {
        remove(watch)
        if (outer !== undefined) pending.set(fiber, outer)
        else pending.delete(fiber)
      }
      // The handler is outside `restore`: an interruption runs it too (an interruptible
      // region's failure handlers are skipped by one), so the watch is never kept past its request.
      const watched = Effect.matchCauseEffect(restore(effect), {
        onSuccess: (value) => {
          done()
          return Effect.succeed(value)
        },
        onFailure: (cause): Effect.Effect<never, E | E2> => {
          done()
          onFailure?.()
          // Interrupted while on the wire: aborted now (an exchange that ended ignores it).
          if (!watch.expired && Cause.isInterrupted(cause)) watch.abort?.()
          return watch.expired ? Effect.fail(onExpired()) : Effect.failCause(cause)
        }
      })
      if (running) return watched
      // Forked within the mask, so that an interruption held back by it cannot stop the fork
      // (the loop unstarted, `running` left true: no later request would ever be timed out).
      return Effect.zipRight(launch(), watched)
    },
    active: () => running,
    start: Effect.uninterruptible(Effect.suspend(() => running ? Effect.void : Effect.asVoid(launch()))),
    watch: watchFrom,
    unwatch: remove
  }
}
