import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as TestClock from "effect/TestClock"
import { Webhook } from "../src/index.js"

// Vectors computed independently with openssl (see the test names).
const trelloBody = new TextEncoder().encode("{\"action\":{\"id\":\"1\"}}")
const trelloUrl = "https://example.com/hooks/trello"
const trelloSignature = "/MP2vPfTjnPwbUfE3vFUR245Btk="
const webflowBody = new TextEncoder().encode("{\"triggerType\":\"form_submission\"}")
const webflowSignature = "5dd860bd736b3ca9c7144dd6e57fbbf3727d12d16efa3c3d3a304fb6105af261"

describe("Webhook signatures", () => {
  it("HMAC-SHA1 base64 over body + callback URL matches `openssl dgst -sha1 -hmac`", () => {
    expect(Webhook.hmacSha1Base64(Redacted.make("app-secret"), trelloBody, trelloUrl)).toBe(trelloSignature)
  })

  it.effect("accepts a good SHA-1 signature and rejects a missing, wrong or other-URL one with 401", () =>
    Effect.gen(function*() {
      const secret = Redacted.make("app-secret")
      yield* Webhook.verifyHmacSha1Base64({ secret, body: trelloBody, callbackUrl: trelloUrl, signature: trelloSignature })
      for (const [signature, callbackUrl] of [
        [undefined, trelloUrl],
        ["", trelloUrl],
        ["AAAAvPfTjnPwbUfE3vFUR245Btk=", trelloUrl],
        [trelloSignature, trelloUrl + "?x=1"]
      ] as const) {
        const error = yield* Effect.flip(Webhook.verifyHmacSha1Base64({ secret, body: trelloBody, callbackUrl, signature }))
        expect(error).toMatchObject({ _tag: "DeliveryRejected", status: 401 })
      }
    }))

  it("HMAC-SHA256 hex over timestamp:body matches `openssl dgst -sha256 -hmac`", () => {
    expect(Webhook.hmacSha256Hex(Redacted.make("wf-secret"), "1700000000000", webflowBody)).toBe(webflowSignature)
  })

  it.effect("checks the SHA-256 timestamp against a tolerance window", () =>
    Effect.gen(function*() {
      const secret = Redacted.make("wf-secret")
      const check = (timestamp: string | undefined, signature: string | undefined = webflowSignature) =>
        Webhook.verifyHmacSha256Hex({ secret, body: webflowBody, timestamp, signature })
      yield* TestClock.setTime(1_700_000_000_000 + 4 * 60_000)
      yield* check("1700000000000")
      yield* TestClock.setTime(1_700_000_000_000 + 6 * 60_000)
      expect((yield* Effect.flip(check("1700000000000"))).message).toContain("outside the tolerance window")
      yield* TestClock.setTime(1_700_000_000_000)
      expect((yield* Effect.flip(check("1700000000000", webflowSignature.replace("5", "6")))).status).toBe(401)
      expect((yield* Effect.flip(check(undefined))).status).toBe(401)
      expect((yield* Effect.flip(check("1700000000000", ""))).status).toBe(401)
    }))

  it.effect("rejects a body over the size limit with 413", () =>
    Effect.gen(function*() {
      yield* Webhook.checkSize(new Uint8Array(10), 10)
      const error = yield* Effect.flip(Webhook.checkSize(new Uint8Array(11), 10))
      expect(error).toMatchObject({ status: 413 })
    }))

  it("compares in constant time, unequal lengths included", () => {
    expect(Webhook.safeEqual("abc", "abc")).toBe(true)
    expect(Webhook.safeEqual("abc", "abd")).toBe(false)
    expect(Webhook.safeEqual("abc", "abcd")).toBe(false)
  })
})
