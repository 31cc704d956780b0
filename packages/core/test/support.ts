/**
 * Test support: an in-memory HttpClient whose responses are synchronous, so that retry and
 * rate-limit timings run entirely on TestClock, and a fixture component that exercises every
 * property kind.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { Action, Auth, Component, Connection, Options, Property, ProviderClient, Trigger, Webhook } from "../src/index.js"

export interface Reply {
  readonly status: number
  readonly body?: string
  readonly headers?: Record<string, string>
}

export interface Sent {
  readonly at: number
  readonly method: string
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string | undefined
}

/** A response whose body reads synchronously (a web Response's would wait on a Promise). */
const syncResponse = (request: HttpClientRequest.HttpClientRequest, reply: Reply) => {
  const response = HttpClientResponse.fromWeb(
    request,
    new Response(null, { status: reply.status, headers: reply.headers ?? {} })
  )
  const text = reply.body ?? ""
  Object.defineProperty(response, "text", { get: () => Effect.succeed(text) })
  Object.defineProperty(response, "json", { get: () => Effect.try(() => JSON.parse(text)) })
  Object.defineProperty(response, "arrayBuffer", {
    get: () => Effect.succeed(new TextEncoder().encode(text).buffer)
  })
  return response
}

export type Handler = (request: Sent, index: number) => Reply | "refused" | "reset" | "hang"

/** An HttpClient that answers from `handler` and records every request, with the (Test)Clock time. */
export const fakeHttp = (handler: Handler) => {
  const sent: Array<Sent> = []
  const client = HttpClient.make((request, url, signal) =>
    Effect.flatMap(Clock.currentTimeMillis, (at) => {
      const body = request.body._tag === "Uint8Array" ? new TextDecoder().decode(request.body.body) : undefined
      const record: Sent = { at, method: request.method, url: url.toString(), headers: request.headers, body }
      sent.push(record)
      const reply = handler(record, sent.length - 1)
      if (reply === "hang") {
        // Like a real client: no answer until the request is aborted.
        return Effect.async<never, HttpClientError.RequestError>((resume) => {
          signal.addEventListener("abort", () =>
            resume(Effect.fail(
              new HttpClientError.RequestError({ request, reason: "Transport", cause: new Error("aborted") })
            )))
        })
      }
      if (reply === "refused" || reply === "reset") {
        const cause = Object.assign(new Error(reply === "refused" ? "connect ECONNREFUSED" : "socket hang up"), {
          code: reply === "refused" ? "ECONNREFUSED" : "ECONNRESET"
        })
        return Effect.fail(new HttpClientError.RequestError({ request, reason: "Transport", cause }))
      }
      return Effect.succeed(syncResponse(request, reply))
    })
  )
  return { client, sent, layer: Layer.succeed(HttpClient.HttpClient, client) }
}

// ---------------------------------------------------------------------------
// A fixture component

export const Thing = Schema.Struct({ id: Schema.String, name: Schema.String, count: Schema.Number })

export const everyKind = {
  text: Property.string({ title: "Text", required: true, minLength: 1, maxLength: 10 }),
  flag: Property.boolean({ title: "Flag" }),
  count: Property.integer({ title: "Count", minimum: 0, maximum: 100 }),
  when: Property.dateTime({ title: "When" }),
  meta: Property.object({ title: "Meta" }),
  tags: Property.array({ title: "Tags", items: Property.string({ title: "Tag" }) }),
  color: Property.string({ title: "Color", options: [{ label: "Red", value: "red" }, { label: "Blue", value: "blue" }] }),
  listId: Property.string({
    title: "List",
    dynamicOptions: Options.dynamic(["boardId"], ({ client, params }) =>
      client.json(
        { method: "GET", path: ProviderClient.path`/boards/${String(params["boardId"])}/lists` },
        Schema.Array(Thing)
      ).pipe(Effect.map((things) => Options.choices(things, (t) => t.name, (t) => t.id))))
  }),
  boardId: Property.string({ title: "Board" })
}

export const createThing = Action.make({
  name: "createThing",
  title: "Create Thing",
  description: "Creates a thing from every kind of property.",
  props: everyKind,
  output: Thing,
  run: (params, { client }) =>
    client.json({
      method: "POST",
      path: "/things",
      body: ProviderClient.jsonBody({
        text: params.text,
        flag: params.flag,
        count: params.count,
        when: params.when,
        meta: params.meta,
        tags: params.tags,
        color: params.color
      })
    }, Thing)
})

export const getThing = Action.make({
  name: "getThing",
  title: "Get Thing",
  description: "Reads one thing.",
  props: { id: Property.string({ title: "Id", required: true, pattern: /^[0-9a-f]{24}$/, patternMessage: "must be 24 hexadecimal digits" }) },
  output: Thing,
  run: (params, { client }) => client.json({ method: "GET", path: ProviderClient.path`/things/${params.id}` }, Thing)
})

export const fixtureConnection = Connection.custom({
  title: "Fixture key",
  props: {
    key: Property.secret({ title: "Key", required: true, minLength: 1 }),
    token: Property.secret({ title: "Token", required: true, minLength: 1 }),
    secret: Property.secret({ title: "Webhook secret" })
  },
  client: { defaultBaseUrl: "https://api.fixture.test/1", retry: { maxRetries: 2, baseDelay: "100 millis" } },
  rateLimits: [{ scope: "token", limit: 100, interval: "10 seconds" }],
  authenticate: (values) => ({
    credentials: Auth.headers({ "X-Key": values.key, "X-Token": values.token }),
    rateLimitKeys: { token: values.token }
  })
})

const Delivery = Schema.parseJson(Schema.Struct({
  action: Schema.Struct({ id: Schema.String, type: Schema.String, data: Schema.Struct({ thingId: Schema.String }) })
}))

export const newThing = Trigger.dynamicWebhook({
  name: "newThing",
  title: "New Thing",
  description: "Fires when a thing is created in a list.",
  props: { listId: Property.string({ title: "List", required: true }) },
  output: Thing,
  state: Schema.Struct({ webhookId: Schema.String }),
  enable: ({ client, params, webhookUrl }) =>
    client.json(
      { method: "POST", path: "/webhooks", body: ProviderClient.jsonBody({ callbackURL: webhookUrl, idModel: params.listId }) },
      Schema.Struct({ id: Schema.String })
    ).pipe(Effect.map((webhook) => ({ webhookId: webhook.id }))),
  disable: ({ client, state }) =>
    client.void({ method: "DELETE", path: ProviderClient.path`/webhooks/${state.webhookId}` }).pipe(
      Effect.catchTag("NotFound", () => Effect.void)
    ),
  handle: ({ client, connection, request }) =>
    Effect.gen(function*() {
      const secret = connection["secret"]
      if (Redacted.isRedacted(secret)) {
        const verified = yield* Effect.either(Webhook.verifyHmacSha1Base64({
          secret: secret as Redacted.Redacted<string>,
          body: request.body,
          callbackUrl: request.url,
          signature: request.headers["x-fixture-webhook"]
        }))
        if (verified._tag === "Left") return { response: { status: verified.left.status }, events: [] }
      }
      const delivery = Schema.decodeUnknownOption(Delivery)(new TextDecoder().decode(request.body))
      if (delivery._tag === "None" || delivery.value.action.type !== "createThing") {
        return { response: { status: 200 }, events: [] }
      }
      const { action } = delivery.value
      const thing = yield* client.json({ method: "GET", path: ProviderClient.path`/things/${action.data.thingId}` }, Thing)
      return { response: { status: 200 }, events: [{ id: action.id, output: thing }] }
    })
})

export const fixture = Component.make({
  name: "fixture",
  version: 1,
  title: "Fixture",
  description: "A component for tests.",
  category: "Testing",
  connection: fixtureConnection,
  actions: [createThing, getThing],
  triggers: [newThing],
  customAction: true
})

export const KEY = "key-0123456789abcdef"
export const TOKEN = "token-fedcba9876543210secret"
export const connectionValues = { key: KEY, token: TOKEN }
