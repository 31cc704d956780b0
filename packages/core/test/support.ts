/**
 * Test support: the in-memory HttpClient, and a fixture component that exercises every
 * property kind.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import {
  Action,
  Auth,
  BufferedSend,
  Choice,
  Component,
  Connection,
  Connections,
  DynamicOptions,
  type OAuth2,
  Property,
  ProviderClient,
  ProviderRequest,
  RateLimiter,
  RequestDeadline,
  Trigger,
  Webhook
} from "../src/index.js"
import { TestHttpClient } from "../src/testing.js"

/** The opened connections of these values (by component name), over this HttpClient: what a runner provides. */
export const connected = (
  values: Connections.ValuesByComponent,
  http: Layer.Layer<HttpClient.HttpClient> = FetchHttpClient.layer
): Layer.Layer<Connections.Connections> => Connections.layer(values).pipe(Layer.provide(http))

export type Handler = (request: TestHttpClient.Sent, index: number) => TestHttpClient.Outcome

/** An in-memory HttpClient (see `TestHttpClient`): answers from `handler`, records what was sent. */
export const fakeHttp = (handler: Handler) => TestHttpClient.make(handler)

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
  color: Property.string({ title: "Color", choices: [{ label: "Red", value: "red" }, { label: "Blue", value: "blue" }] }),
  listId: Property.string({
    title: "List",
    dynamicOptions: DynamicOptions.make(["boardId"], ({ client, params }) =>
      client.json(
        { method: "GET", path: ProviderRequest.path`/boards/${DynamicOptions.dependency(params, "boardId")}/lists` },
        Schema.Array(Thing)
      ).pipe(Effect.map((things) => Choice.fromRecords(things, (t) => t.name, (t) => t.id))))
  }),
  boardId: Property.string({ title: "Board" })
}

export const createThing = Action.make({
  name: "createThing",
  title: "Create Thing",
  description: "Creates a thing from every kind of property.",
  impact: "write",
  idempotent: false,
  props: everyKind,
  output: Thing,
  run: (params, { client }) =>
    client.json({
      method: "POST",
      path: "/things",
      body: ProviderRequest.jsonBody({
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
  impact: "read",
  props: { id: Property.string({ title: "Id", required: true, pattern: /^[0-9a-f]{24}$/, patternMessage: "must be 24 hexadecimal digits" }) },
  output: Thing,
  run: (params, { client }) => client.json({ method: "GET", path: ProviderRequest.path`/things/${params.id}` }, Thing)
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
  urlCheck: Webhook.headCheck,
  enable: ({ client, params, webhookUrl }) =>
    client.json(
      { method: "POST", path: "/webhooks", body: ProviderRequest.jsonBody({ callbackURL: webhookUrl, idModel: params.listId }) },
      Schema.Struct({ id: Schema.String })
    ).pipe(Effect.map((webhook) => ({ webhookId: webhook.id }))),
  disable: ({ client, state }) =>
    client.void({ method: "DELETE", path: ProviderRequest.path`/webhooks/${state.webhookId}` }).pipe(
      Effect.catchTag("NotFound", () => Effect.void)
    ),
  handle: ({ client, connection, request }) =>
    Effect.gen(function*() {
      const secret = connection["secret"]
      if (Redacted.isRedacted(secret)) {
        yield* Webhook.verifyHmacSha1Base64({
          secret: secret as Redacted.Redacted<string>,
          body: request.body,
          callbackUrl: request.url,
          signature: request.headers["x-fixture-webhook"]
        })
      }
      const delivery = Schema.decodeUnknownOption(Delivery)(new TextDecoder().decode(request.body))
      if (delivery._tag === "None" || delivery.value.action.type !== "createThing") {
        return { response: { status: 200 }, events: [] }
      }
      const { action } = delivery.value
      const thing = yield* client.json({ method: "GET", path: ProviderRequest.path`/things/${action.data.thingId}` }, Thing)
      return { response: { status: 200 }, events: [{ id: action.id, output: thing }] }
    })
})

const Page = Schema.Array(Thing)

/**
 * `fixture/v1/thingsChanged`: polls `GET /things?since=<count>` every minute; the cursor is the
 * highest count seen, each thing an event (id = thing id + count). Its sample is the first
 * page of `GET /things`.
 */
export const thingsChanged = Trigger.polling({
  name: "thingsChanged",
  title: "Things Changed",
  description: "Fires for each thing whose count rose.",
  props: { listId: Property.string({ title: "List", required: true }) },
  output: Thing,
  interval: "1 minute",
  cursor: Schema.Struct({ since: Schema.Number }),
  poll: ({ client, cursor, params }) =>
    client.json({ method: "GET", path: "/things", query: { list: params.listId, since: String(cursor?.since ?? 0) } }, Page).pipe(
      Effect.map((things) => ({
        events: things.map((thing) => ({ id: `${thing.id}:${thing.count}`, output: thing })),
        cursor: { since: Math.max(cursor?.since ?? 0, ...things.map((t) => t.count)) }
      }))
    ),
  sample: ({ client, params }) =>
    client.json({ method: "GET", path: "/things", query: { list: params.listId } }, Page).pipe(
      Effect.map((things) => things.map((thing) => ({ id: thing.id, output: thing })))
    )
})

export const fixture = Component.make({
  name: "fixture",
  version: 1,
  title: "Fixture",
  description: "A component for tests.",
  category: "Testing",
  connection: fixtureConnection,
  actions: [createThing, getThing],
  triggers: [newThing, thingsChanged],
  customAction: true
})

export const KEY = "key-0123456789abcdef"
export const TOKEN = "token-fedcba9876543210secret"
export const connectionValues = { key: KEY, token: TOKEN }

// ---------------------------------------------------------------------------
// An OAuth2 fixture component

const Me = Schema.Struct({ id: Schema.String })

/** `oauthy/v1`, an OAuth2 component whose one action, `me` (scope `sites:read`), reads `GET /me`. */
export const oauthComponent = (oauth2: OAuth2.Settings, client: Connection.ClientSettings) => {
  const me = Action.make({
    name: "me",
    title: "Me",
    description: "Reads the current user.",
    impact: "read",
    props: {},
    output: Me,
    scopes: ["sites:read"],
    run: (_, { client }) => client.json({ method: "GET", path: "/me" }, Me)
  })
  const component = Component.make({
    name: "oauthy",
    version: 1,
    title: "OAuthy",
    description: "",
    category: "Testing",
    connection: Connection.oauth2({ title: "OAuthy", oauth2, client }),
    actions: [me]
  })
  return { me, component }
}

/** The step that runs `oauthy/v1/me`. */
export const meStep = { label: "Me", name: "me", type: "oauthy/v1/me", parameters: {} }

// ---------------------------------------------------------------------------------------------
// A provider's client on TestClock, for time limits: the requests it sees and the aborts.
// ---------------------------------------------------------------------------------------------

/** One request the time-limited fake saw: which way it came, and whether it got a deadline (`execute`). */
export interface SeenRequest {
  readonly path: string
  readonly via: "execute" | "callback"
  readonly deadline: boolean
  readonly signalAborted: () => boolean
}

/**
 * A deadline-aware client on TestClock (`execute` takes each request's deadline), with
 * `buffered` a `BufferedSend` too (the callback): `/ok` answers `{"ok":true}` at once (an abort
 * of it afterwards is counted too: none may come), `/later` the same a moment later (callback),
 * `/missing` 404, `/flaky` 503 the first time, `/hang` only its abort.
 */
export const timedFake = (options: { readonly buffered?: boolean } = {}) => {
  const seen: Array<SeenRequest> = []
  let aborts = 0
  let flaky = 0
  const answer = (request: HttpClientRequest.HttpClientRequest, path: string) =>
    path.endsWith("/missing")
      ? HttpClientResponse.fromWeb(request, new Response(JSON.stringify({ message: "no such card" }), { status: 404 }))
      : path.endsWith("/flaky") && flaky++ === 0
      ? HttpClientResponse.fromWeb(request, new Response(JSON.stringify({ message: "try again" }), { status: 503 }))
      : HttpClientResponse.fromWeb(request, new Response(JSON.stringify({ ok: true }), { status: 200 }))
  const aborted = (request: HttpClientRequest.HttpClientRequest) =>
    new HttpClientError.RequestError({ request, reason: "Transport", cause: new Error("aborted") })
  const execute = RequestDeadline.deadlineAware(HttpClient.make((request, url, signal, fiber) => {
    const deadline = RequestDeadline.take(fiber)
    seen.push({ path: url.pathname, via: "execute", deadline: deadline !== undefined, signalAborted: () => signal.aborted })
    if (!url.pathname.endsWith("/hang")) {
      if (deadline !== undefined) deadline.abort = () => aborts++
      return Effect.succeed(answer(request, url.pathname))
    }
    return Effect.async<never, HttpClientError.RequestError>((resume) => {
      if (deadline === undefined) return
      deadline.abort = () => {
        aborts++
        resume(Effect.fail(aborted(request)))
      }
    })
  }))
  const client: HttpClient.HttpClient = options.buffered !== true ? execute : BufferedSend.bufferedSend(execute, (request, _fiber, done) => {
    const path = new URL(request.url).pathname
    seen.push({ path, via: "callback", deadline: false, signalAborted: () => false })
    if (path.endsWith("/later")) {
      // Called back later, from outside the fiber's step (as undici's callback is).
      queueMicrotask(() => done(Either.right(answer(request, path))))
      return () => {}
    }
    if (!path.endsWith("/hang")) {
      done(Either.right(answer(request, path)))
      return () => {}
    }
    let ended = false
    return () => {
      if (ended) return
      ended = true
      aborts++
      done(Either.left(aborted(request)))
    }
  })
  return { client, seen, vias: () => seen.map((s) => s.via), aborts: () => aborts }
}

/**
 * A provider client of `http` with a 10 s limit, no retries unless asked, and, with `limit`, a
 * rate limit of `limit` a minute on its key (in `store`, else in memory). Its credentials are
 * headers set once (no wrapper around the client), or, with `query`, a key in the query (a
 * wrapper). The test runtime's tracer is on: the client's own `tracing` says whether a request
 * gets a span.
 */
export const timedProvider = (
  http: HttpClient.HttpClient,
  options: {
    readonly limit?: number
    readonly store?: RateLimiter.RateLimiterStore
    readonly query?: boolean
    readonly tracing?: boolean
    readonly retries?: number
  } = {}
) =>
  ProviderClient.makeWith(http, RateLimiter.make(options.store), {
    tracing: options.tracing,
    baseUrl: "https://api.example.test/v1",
    credentials: options.query === true ? Auth.query({ key: "key-0123456789" }) : Auth.headers({ "x-api-key": "key-0123456789" }),
    timeout: "10 seconds",
    retry: { maxRetries: options.retries ?? 0 },
    ...(options.limit === undefined ? {} : { rateLimits: [{ scope: "key", credential: "key-0123456789", limit: options.limit, interval: "1 minute" }] })
  })
