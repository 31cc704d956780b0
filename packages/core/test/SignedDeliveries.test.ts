/**
 * A webhook trigger whose provider signs deliveries (`signedWith`): without the signing secret
 * in its connection, the executor refuses every delivery unless told to accept unsigned ones;
 * with it, a delivery must be signed, whatever the executor is told.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import nock from "nock"
import { Component, type Connections, Executor, Trigger, Webhook } from "../src/index.js"
import { connected, connectionValues, fixtureConnection } from "./support.js"

const Event = Schema.Struct({ id: Schema.String })
// Verifies only when it has the secret, as Trello's triggers do (the secret is optional there).
const handle = ({ connection, request }: { readonly connection: { readonly secret?: Redacted.Redacted<string> | undefined }; readonly request: Trigger.WebhookRequest }) =>
  Effect.gen(function*() {
    if (connection.secret !== undefined) {
      yield* Webhook.verifyHmacSha1Base64({ secret: connection.secret, body: request.body, callbackUrl: request.url, signature: request.headers["x-signature"] })
    }
    const event = Schema.decodeUnknownSync(Schema.parseJson(Event))(new TextDecoder().decode(request.body))
    return { response: { status: 200 }, events: [{ id: event.id, output: event }] }
  })
const common = { connection: fixtureConnection, props: {}, output: Event, signedWith: "secret" as const }
const onDynamic = Trigger.dynamicWebhook({
  ...common,
  name: "onDynamic",
  title: "On Dynamic",
  description: "A registered webhook, signed with the connection's secret.",
  state: Schema.Struct({ hook: Schema.String }),
  enable: () => Effect.succeed({ hook: "h1" }),
  disable: () => Effect.void,
  handle
})
const onStatic = Trigger.staticWebhook({
  ...common,
  name: "onStatic",
  title: "On Static",
  description: "A webhook set up by hand, signed with the connection's secret.",
  setup: "Paste the URL in the fixture's dashboard.",
  handle
})
const component = Component.make({
  name: "signed",
  version: 1,
  title: "Signed",
  description: "Triggers whose deliveries are signed.",
  category: "Testing",
  connection: fixtureConnection,
  actions: [],
  triggers: [onDynamic, onStatic]
})
const executor = Executor.make([component])
const steps = [
  { label: "On dynamic", name: "onDynamic", type: "signed/v1/onDynamic", parameters: {} },
  { label: "On static", name: "onStatic", type: "signed/v1/onStatic", parameters: {} }
]
const secret = "signing-secret-0123"
const url = "https://runner.example/hooks"
const body = new TextEncoder().encode(JSON.stringify({ id: "e1" }))
const unsigned = { method: "POST", url, headers: {}, body }
const signedRequest = { ...unsigned, headers: { "x-signature": Webhook.hmacSha1Base64(Redacted.make(secret), body, url) } }
const withSecret = <A, E>(effect: Effect.Effect<A, E, Connections.Connections>) =>
  Effect.provide(effect, connected({ signed: { ...connectionValues, secret } }))
const withoutSecret = <A, E>(effect: Effect.Effect<A, E, Connections.Connections>) => Effect.provide(effect, connected({ signed: connectionValues }))

beforeAll(() => nock.disableNetConnect())
afterAll(() => nock.enableNetConnect())

describe("Executor: deliveries of triggers whose provider signs them", () => {
  it.effect("without the signing secret, every delivery is refused (401) unless unsigned ones are allowed", () =>
    Effect.gen(function*() {
      for (const step of steps) {
        const refused = yield* withoutSecret(executor.handleDelivery(step, { hook: "h1" }, unsigned))
        expect(refused, step.type).toEqual({ response: { status: 401, body: "the connection has no secret to verify deliveries with" }, events: [] })
        // The operator's explicit choice: accepted unsigned.
        const allowed = yield* withoutSecret(executor.handleDelivery(step, { hook: "h1" }, unsigned, { allowUnsigned: true }))
        expect(allowed, step.type).toEqual({ response: { status: 200 }, events: [{ id: "e1", output: { id: "e1" } }] })
      }
    }))

  it.effect("with the signing secret, a delivery must be signed, unsigned ones allowed or not", () =>
    Effect.gen(function*() {
      for (const step of steps) {
        for (const allowUnsigned of [false, true]) {
          const refused = yield* withSecret(executor.handleDelivery(step, { hook: "h1" }, unsigned, { allowUnsigned }))
          expect(refused.response.status, step.type).toBe(401)
          expect(refused.events).toEqual([])
          const accepted = yield* withSecret(executor.handleDelivery(step, { hook: "h1" }, signedRequest, { allowUnsigned }))
          expect(accepted.events.map((event) => event.id), step.type).toEqual(["e1"])
        }
      }
    }))

  it("the field is declared in the definition", () => {
    expect(onDynamic.signedWith).toBe("secret")
    expect(onStatic.signedWith).toBe("secret")
  })
})
