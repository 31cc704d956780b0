import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/TestClock"
import nock from "nock"
import { Component, Connections, Executor, Property, Trigger, Webhook } from "../src/index.js"
import { connected, connectionValues, fixtureConnection } from "./support.js"

// A static webhook: registered by hand, signed like Browser Use's, with the secret in the connection.
const Event = Schema.Struct({ id: Schema.String, kind: Schema.String, note: Schema.String })
const onEvent = Trigger.staticWebhook({
  name: "onEvent",
  title: "On Event",
  description: "Fires on each event sent to the URL set up in the provider's dashboard.",
  setup: "Paste the URL in the fixture's dashboard.",
  connection: fixtureConnection,
  props: { kind: Property.string({ title: "Kind", required: true }) },
  output: Event,
  handle: ({ connection, params, request }) =>
    Effect.gen(function*() {
      if (connection.secret === undefined) return yield* new Webhook.DeliveryRejected({ status: 401, message: "no secret" })
      yield* Webhook.verifyHmacSha256SortedJsonHex({
        secret: connection.secret,
        body: request.body,
        timestamp: request.headers["x-timestamp"],
        signature: request.headers["x-signature"]
      })
      const event = Schema.decodeUnknownSync(Schema.parseJson(Event))(new TextDecoder().decode(request.body))
      return { response: { status: 200 }, events: event.kind === params.kind ? [{ id: event.id, output: event }] : [] }
    })
})
const component = Component.make({
  name: "statics",
  version: 1,
  title: "Statics",
  description: "A component with a static webhook.",
  category: "Testing",
  connection: fixtureConnection,
  actions: [],
  triggers: [onEvent]
})
const executor = Executor.make([component], { maxDeliveryBytes: 256 })
const step = { label: "On event", name: "onEvent", type: "statics/v1/onEvent", parameters: { kind: "created" } }
const secret = "static-secret-0123"
const provide = <A, E>(effect: Effect.Effect<A, E, Connections.Connections>) =>
  Effect.provide(effect, connected({ statics: { ...connectionValues, secret } }))

const now = 1_800_000_000
const signed = (value: unknown, options: { readonly key?: string; readonly at?: number } = {}) => {
  const timestamp = String(options.at ?? now)
  return {
    method: "POST",
    url: "https://runner.example/hooks",
    headers: {
      "x-timestamp": timestamp,
      "x-signature": Webhook.hmacSha256SortedJsonHex(Redacted.make(options.key ?? secret), timestamp, value)
    },
    body: new TextEncoder().encode(JSON.stringify(value))
  }
}
const created = { id: "e1", kind: "created", note: "hello" }

beforeAll(() => nock.disableNetConnect())
afterAll(() => nock.enableNetConnect())

describe("Executor: static-webhook triggers", () => {
  it.effect("a signed delivery becomes events with their ids, without any state", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(now * 1000)
      const result = yield* provide(executor.handleDelivery(step, undefined, signed(created)))
      expect(result).toEqual({ response: { status: 200 }, events: [{ id: "e1", output: created }] })
      // Prepared once: the same, and the stored state is not looked at.
      const prepared = executor.prepareTrigger(step)
      if (prepared._tag === "Left") throw new Error(prepared.left.message)
      const again = yield* provide(executor.handleDelivery(prepared.right, { anything: 1 }, signed({ ...created, kind: "deleted" })))
      expect(again).toEqual({ response: { status: 200 }, events: [] })
    }))

  it.effect("forged, stale and oversize deliveries are refused (401, 401, 413) with no events", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(now * 1000)
      const forged = yield* provide(executor.handleDelivery(step, undefined, signed(created, { key: "guessed" })))
      expect(forged).toEqual({ response: { status: 401, body: "the delivery's signature does not match" }, events: [] })
      const stale = yield* provide(executor.handleDelivery(step, undefined, signed(created, { at: now - 301 })))
      expect(stale.response.status).toBe(401)
      expect(stale.events).toEqual([])
      const big = yield* provide(executor.handleDelivery(step, undefined, signed({ ...created, note: "x".repeat(300) })))
      expect(big).toMatchObject({ response: { status: 413 }, events: [] })
    }))

  it.effect("enabling or disabling one is an InvalidInput saying why", () =>
    Effect.gen(function*() {
      const enabled = yield* Effect.flip(provide(executor.enableTrigger(step, "https://runner.example/hooks")))
      expect(enabled._tag).toBe("InvalidInput")
      expect(enabled.message).toContain("statics/v1/onEvent is a static webhook trigger: its URL is registered by hand")
      const disabled = yield* Effect.flip(provide(executor.disableTrigger(step, {})))
      expect(disabled._tag).toBe("InvalidInput")
    }))

  it("is described with its kind and where its URL goes", () => {
    expect(Component.describe(component).triggers[0]).toMatchObject({
      name: "onEvent",
      kind: "STATIC_WEBHOOK",
      setup: "Paste the URL in the fixture's dashboard."
    })
  })
})
