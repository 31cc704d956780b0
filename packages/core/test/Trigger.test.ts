import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Either from "effect/Either"
import * as Redacted from "effect/Redacted"
import nock from "nock"
import { Component, Connections, Executor, Trigger, Webhook } from "../src/index.js"
import { connected, connectionValues, fixture, newThing, thingsChanged } from "./support.js"

const API = "https://api.fixture.test"
const executor = Executor.make([fixture])
const trigger = { label: "New thing", name: "onNew", type: "fixture/v1/newThing", parameters: { listId: "l1" } }
const callbackUrl = "https://runner.example/webhooks/onNew"
const connection = { ...connectionValues, secret: "app-secret-0123" }
const provide = <A, E>(effect: Effect.Effect<A, E, Connections.Connections>) =>
  Effect.provide(effect, connected({ fixture: connection }))

const delivery = (body: string, signature?: string) => ({
  method: "POST",
  url: callbackUrl,
  headers: signature === undefined ? {} : { "x-fixture-webhook": signature },
  body: new TextEncoder().encode(body)
})
const created = JSON.stringify({ action: { id: "a1", type: "createThing", data: { thingId: "t1" } } })

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})
afterAll(() => nock.enableNetConnect())

describe("Executor triggers", () => {
  it.effect("enable registers the webhook and returns its state; disable removes it, a 404 included", () =>
    Effect.gen(function*() {
      const api = nock(API)
        .post("/1/webhooks", { callbackURL: callbackUrl, idModel: "l1" }).reply(200, { id: "w1" })
        .delete("/1/webhooks/w1").reply(200, {})
        .delete("/1/webhooks/w1").reply(404, "webhook not found")
      const state = yield* provide(executor.enableTrigger(trigger, callbackUrl))
      expect(state).toEqual({ webhookId: "w1" })
      yield* provide(executor.disableTrigger(trigger, state))
      yield* provide(executor.disableTrigger(trigger, state))
      expect(api.isDone()).toBe(true)
    }))

  it.effect("a signed delivery becomes an event with its id and the full record", () =>
    Effect.gen(function*() {
      nock(API).get("/1/things/t1").reply(200, { id: "t1", name: "Thing", count: 2 })
      const signature = Webhook.hmacSha1Base64(Redacted.make("app-secret-0123"), created, callbackUrl)
      const result = yield* provide(
        executor.handleDelivery(trigger, { webhookId: "w1" }, delivery(created, signature))
      )
      expect(result).toEqual({
        response: { status: 200 },
        events: [{ id: "a1", output: { id: "t1", name: "Thing", count: 2 } }]
      })
    }))

  it.effect("a trigger prepared once is not decoded again on each delivery", () =>
    Effect.gen(function*() {
      const prepared = executor.prepareTrigger(trigger)
      if (Either.isLeft(prepared)) return expect.fail(prepared.left.message)
      const decode = vi.spyOn(prepared.right.trigger, "decode")
      try {
        nock(API).get("/1/things/t1").times(3).reply(200, { id: "t1", name: "Thing", count: 2 })
        const signature = Webhook.hmacSha1Base64(Redacted.make("app-secret-0123"), created, callbackUrl)
        for (let i = 0; i < 3; i++) {
          const result = yield* provide(executor.handleDelivery(prepared.right, { webhookId: "w1" }, delivery(created, signature)))
          expect(result.events).toEqual([{ id: "a1", output: { id: "t1", name: "Thing", count: 2 } }])
        }
        expect(decode).not.toHaveBeenCalled()
      } finally {
        decode.mockRestore()
      }
      const bad = executor.prepareTrigger({ ...trigger, parameters: {} })
      expect(Either.isLeft(bad) && bad.left.message).toBe("step \"onNew\" (fixture/v1/newThing): listId: is required")
    }))

  it.effect("an event whose record echoes a credential is scrubbed like any output", () =>
    Effect.gen(function*() {
      nock(API).get("/1/things/t1").reply(200, { id: "t1", name: `made with ${connection.token}`, count: 2 })
      const signature = Webhook.hmacSha1Base64(Redacted.make("app-secret-0123"), created, callbackUrl)
      const result = yield* provide(executor.handleDelivery(trigger, { webhookId: "w1" }, delivery(created, signature)))
      expect(result.events).toEqual([{ id: "a1", output: { id: "t1", name: "made with [redacted]", count: 2 } }])
    }))

  it.effect("the provider's check of the URL is answered before any state exists, with nothing opened or sent", () =>
    Effect.gen(function*() {
      const anywhere = nock(/.*/).get(/.*/).reply(200, {}).persist()
      const head = { ...delivery(""), method: "HEAD" }
      // No state yet (the check comes while enabling), and no connection needed to answer it.
      const result = yield* executor.handleDelivery(trigger, undefined, head).pipe(Effect.provide(connected({})))
      expect(result).toEqual({ response: { status: 200 }, events: [] })
      expect(anywhere.isDone()).toBe(false)
      // A trigger whose provider does not check its URL so: a HEAD is a delivery like any other.
      const plain = Component.make({ ...fixture, actions: [], triggers: [{ ...(fixture.triggers["newThing"] as Trigger.DynamicWebhookTrigger), urlCheck: undefined }] })
      const error = yield* Effect.flip(
        Executor.make([plain]).handleDelivery(trigger, undefined, head).pipe(Effect.provide(connected({ fixture: connection })))
      )
      expect(error.message).toContain("state: ")
    }))

  it.effect("a forged or unsigned delivery is answered 401 and runs nothing", () =>
    Effect.gen(function*() {
      const anywhere = nock(/.*/).get(/.*/).reply(200, { id: "t1", name: "Thing", count: 2 }).persist()
      for (
        const [signature, why] of [[undefined, "the delivery has no signature"], ["Zm9yZ2Vk", "the delivery's signature does not match"]] as const
      ) {
        const result = yield* provide(
          executor.handleDelivery(trigger, { webhookId: "w1" }, delivery(created, signature))
        )
        // The trigger's DeliveryRejected, answered by the executor with its status and message.
        expect(result).toEqual({ response: { status: 401, body: why }, events: [] })
      }
      expect(anywhere.isDone()).toBe(false)
    }))

  it.effect("bad trigger parameters, a corrupt stored state or an action's type are InvalidInput", () =>
    Effect.gen(function*() {
      const params = yield* Effect.flip(provide(executor.enableTrigger({ ...trigger, parameters: {} }, callbackUrl)))
      expect(params.message).toBe("step \"onNew\" (fixture/v1/newThing): listId: is required")
      const state = yield* Effect.flip(provide(executor.disableTrigger(trigger, { id: 1 })))
      expect(state._tag).toBe("InvalidInput")
      expect(state.message).toContain("state.webhookId: is required")
      const wrong = yield* Effect.flip(provide(executor.enableTrigger({ ...trigger, type: "fixture/v1/getThing" }, callbackUrl)))
      expect(wrong.message).toContain("fixture/v1 has no trigger \"getThing\"; available: newThing")
    }))

  it.effect("a delivery over the size limit is answered 413 and runs nothing", () =>
    Effect.gen(function*() {
      const small = Executor.make([fixture], { maxDeliveryBytes: 64 })
      const result = yield* provide(
        small.handleDelivery(trigger, { webhookId: "w1" }, delivery("x".repeat(65), "sig"))
      )
      expect(result.response.status).toBe(413)
      expect(result.events).toEqual([])
    }))

  it("describes the trigger with its kind, properties and output", () => {
    const description = Component.describe(fixture)
    expect(description.triggers).toEqual([
      expect.objectContaining({
        name: "newThing",
        kind: "DYNAMIC_WEBHOOK",
        props: { listId: { kind: "STRING", title: "List", required: true } }
      }),
      expect.objectContaining({ name: "thingsChanged", kind: "POLLING" })
    ])
  })
})

describe("Executor triggers kept alive", () => {
  it.effect("a dynamic webhook declaring no check nor catchUp: None from both, nothing sent; Trigger.catchesUp says so", () =>
    Effect.gen(function*() {
      // nock refuses any request: none is sent.
      expect(yield* provide(executor.checkTrigger(trigger, { webhookId: "w1" }))).toEqual(Option.none())
      expect(yield* provide(executor.catchUp(trigger, new Date(0)))).toEqual(Option.none())
      expect([Trigger.catchesUp(newThing), Trigger.catchesUp(thingsChanged)]).toEqual([false, true])
    }))

  it.effect("check and catchUp run with the stored state and a time; the events are encoded like a delivery's", () =>
    Effect.gen(function*() {
      const alive = Trigger.dynamicWebhook({
        ...newThing,
        name: "aliveThing",
        check: ({ state }: { state: { webhookId: string } }) => Effect.succeed(state.webhookId === "w1" ? "inactive" as const : "gone" as const),
        catchUp: ({ since }: { since: Date }) => Effect.succeed([{ id: `since ${since.toISOString()}`, output: { id: "t1", name: "One", count: 1 } }])
      } as never)
      const component = Component.make({ ...fixture, actions: [], triggers: [alive] })
      const keeping = Executor.make([component])
      const step = { ...trigger, type: "fixture/v1/aliveThing" }
      expect(Trigger.catchesUp(alive)).toBe(true)
      expect(yield* provide(keeping.checkTrigger(step, { webhookId: "w1" }))).toEqual(Option.some("inactive"))
      const bad = yield* Effect.flip(provide(keeping.checkTrigger(step, { other: 1 })))
      expect(bad._tag).toBe("InvalidInput")
      expect(yield* provide(keeping.catchUp(step, new Date(0)))).toEqual(Option.some([{ id: "since 1970-01-01T00:00:00.000Z", output: { id: "t1", name: "One", count: 1 } }]))
    }))
})
