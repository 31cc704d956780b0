import { describe, expect, it } from "@effect/vitest"
import { RateLimiter } from "@x/core"
import { TestHttpClient } from "@x/core/testing"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as TestClock from "effect/TestClock"
import { COLLECTION, connectedTo, executor, ITEM, step, webflowItem } from "./support.js"

const burst = (calls: number, values: Record<string, unknown>) =>
  Effect.gen(function*() {
    const http = TestHttpClient.make(() => ({ status: 200, body: webflowItem }))
    const fiber = yield* Effect.fork(
      Effect.forEach(
        Array.from({ length: calls }),
        () => executor.run(step("getCollectionItem", { collectionId: COLLECTION, itemId: ITEM })),
        { concurrency: "unbounded" }
      ).pipe(Effect.provide(connectedTo(values, http.layer)))
    )
    yield* TestClock.adjust("3 minutes")
    yield* Fiber.join(fiber)
    return http.sent.map((s) => s.at).sort((a, b) => a - b)
  })

describe("sitebuilder rate limit (TestClock)", () => {
  it.effect("60 requests a minute per token by default: the 61st waits a minute (and the limiter's margin) after the first answer", () =>
    Effect.gen(function*() {
      const times = yield* burst(61, { clientId: "c", clientSecret: "s", accessToken: "token-for-the-60-test" })
      expect(times.slice(0, 60).every((t) => t === 0)).toBe(true)
      expect(times[60]).toBe(60_000 + RateLimiter.marginMillis)
    }))

  it.effect("120 a minute on a plan that allows it", () =>
    Effect.gen(function*() {
      const times = yield* burst(121, { clientId: "c", clientSecret: "s", accessToken: "token-for-the-120-test", requestsPerMinute: 120 })
      expect(times.slice(0, 120).every((t) => t === 0)).toBe(true)
      expect(times[120]).toBe(60_000 + RateLimiter.marginMillis)
    }))
})
