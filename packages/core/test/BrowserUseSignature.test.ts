import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as TestClock from "effect/TestClock"
import { createHmac } from "node:crypto"
import { Webhook } from "../src/index.js"

// Vectors computed independently with Python, as Browser Use's guide verifies:
// hmac.new(secret, f"{ts}.{json.dumps(body, separators=(',', ':'), sort_keys=True)}", sha256),
// and the same with ensure_ascii=False for the unescaped form.
const secret = Redacted.make("bu-secret")
const timestamp = "1736937000"
const event = {
  type: "agent.task.status_update",
  timestamp: "2025-01-15T10:30:00Z",
  payload: { task_id: "task_abc123", session_id: "session_xyz", status: "idle", metadata: { note: "café ✓", z: 1, a: [true, null, 2.5] } }
}
const pythonSignature = "80f683b286b44642046f1fbad46abfb3fd9b0650c97ebe998c50b612cd8bc534"
const unescapedSignature = "7c85fbcd2c3b4fcd37f1e2160af1324a691132d3219160a9bb8eb054966f411a"

const bytes = (text: string) => new TextEncoder().encode(text)
/** The same event with its keys in another order, and spaced out, as a sender may write it. */
const reordered = `{ "payload": {"status": "idle", "metadata": {"z": 1, "note": "café ✓", "a": [true, null, 2.5]},
  "task_id": "task_abc123", "session_id": "session_xyz"}, "type": "agent.task.status_update", "timestamp": "2025-01-15T10:30:00Z" }`

const verify = (body: Uint8Array, signature: string | undefined, at: string | undefined = timestamp) =>
  Webhook.verifyHmacSha256SortedJsonHex({ secret, body, timestamp: at, signature })

describe("Webhook.verifyHmacSha256SortedJsonHex (Browser Use)", () => {
  it("signs `{timestamp}.{sorted JSON, no spaces}` as Python's json.dumps writes it", () => {
    expect(Webhook.hmacSha256SortedJsonHex(secret, timestamp, event)).toBe(pythonSignature)
    // Key order does not matter to the signature.
    expect(Webhook.hmacSha256SortedJsonHex(secret, timestamp, JSON.parse(reordered))).toBe(pythonSignature)
  })

  it.effect("accepts a valid signature whatever the body's key order and spacing, in either escaping, giving the body's JSON", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Number(timestamp) * 1000 + 1000)
      // What was verified, parsed once: the delivery as JSON.parse reads it (its own key order).
      expect(yield* verify(bytes(JSON.stringify(event)), pythonSignature)).toStrictEqual(event)
      const parsed = yield* verify(bytes(reordered), pythonSignature)
      expect(parsed).toStrictEqual(JSON.parse(reordered))
      expect(Object.keys(parsed as object)).toEqual(["payload", "type", "timestamp"])
      expect(yield* verify(bytes(reordered), unescapedSignature.toUpperCase())).toStrictEqual(event)
    }))

  it.effect("rejects a wrong, missing or differently-keyed signature with 401", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Number(timestamp) * 1000)
      const body = bytes(JSON.stringify(event))
      for (const signature of [undefined, "", pythonSignature.replace("8", "9"), pythonSignature.slice(1)]) {
        expect(yield* Effect.flip(verify(body, signature))).toMatchObject({ _tag: "DeliveryRejected", status: 401 })
      }
      const tampered = bytes(JSON.stringify({ ...event, payload: { ...event.payload, status: "stopped" } }))
      expect((yield* Effect.flip(verify(tampered, pythonSignature))).message).toContain("does not match")
      const other = Webhook.verifyHmacSha256SortedJsonHex({ secret: Redacted.make("other"), body, timestamp, signature: pythonSignature })
      expect((yield* Effect.flip(other)).status).toBe(401)
    }))

  it.effect("a timestamp in seconds is accepted within 300 s either way, and refused past it or malformed", () =>
    Effect.gen(function*() {
      const body = bytes(JSON.stringify(event))
      const sent = Number(timestamp) * 1000
      yield* TestClock.setTime(sent + 300_000)
      yield* verify(body, pythonSignature)
      yield* TestClock.setTime(sent + 301_000)
      expect((yield* Effect.flip(verify(body, pythonSignature))).message).toContain("outside the tolerance window")
      yield* TestClock.setTime(sent - 301_000)
      expect((yield* Effect.flip(verify(body, pythonSignature))).status).toBe(401)
      yield* TestClock.setTime(sent)
      // Milliseconds are not seconds: 1000 times too late.
      expect((yield* Effect.flip(verify(body, pythonSignature, `${timestamp}000`))).status).toBe(401)
      expect((yield* Effect.flip(verify(body, pythonSignature, "1736937000.5"))).status).toBe(401)
      expect((yield* Effect.flip(verify(body, pythonSignature, ""))).status).toBe(401)
    }))

  it.effect("a delivery whose numbers JavaScript would rewrite (1.0, 1e5, an integer past 2^53) is verified as Python signs it; a tampered one is refused", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Number(timestamp) * 1000)
      // Signed with CPython: json.dumps(json.loads(body), sort_keys=True, separators=(",", ":")).
      const body = `{ "type": "agent.task.status_update", "timestamp": "2025-01-15T10:30:00Z", "payload": {"task_id": "t", "status": "idle", ` +
        String.raw`"metadata": {"ratio": 1.0, "big": 9007199254740993, "sci": 1e5, "tiny": 0.000001, "neg": -0, "name": "café ✓", "z": [1.50, 2, {"b": 1, "a": 2.0}]}}}`
      const signed = "1a1b1146138342d19b1a017a27d8983ff48af906c3d877ccd151f3620e0e7661"
      yield* verify(bytes(body), signed)
      // One digit past 2^53 differs: JavaScript reads both as the same number, Python does not.
      const tampered = body.replace("9007199254740993", "9007199254740992")
      expect(yield* Effect.flip(verify(bytes(tampered), signed))).toMatchObject({ _tag: "DeliveryRejected", status: 401 })
      // 1.0 and 1 are different texts to Python.
      expect((yield* Effect.flip(verify(bytes(body.replace(`"ratio": 1.0`, `"ratio": 1`)), signed))).status).toBe(401)
    }))

  it.effect("a body that is not JSON is a 400", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Number(timestamp) * 1000)
      expect(yield* Effect.flip(verify(bytes("type=test"), pythonSignature))).toMatchObject({ status: 400 })
    }))

  it("writes no spaces, escapes outside ASCII like Python, and sorts nested keys", () => {
    // Spelled out: the message signed is exactly this (Python's output for the same value).
    const message = String.raw`1.{"a":"x y","b":{"c":[{"e":2,"f":1}],"d":1},"u":"\u00e9\ud83d\ude00\u007f"}`
    const signed = Webhook.hmacSha256SortedJsonHex(secret, "1", { u: "é😀\u007f", b: { d: 1, c: [{ f: 1, e: 2 }] }, a: "x y" })
    expect(signed).toBe(createHmac("sha256", "bu-secret").update(message).digest("hex"))
  })
})
