import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import nock from "nock"
import { API, AUTHORIZATION, BOARD, CARD, card, connection, executor, LIST, TOKEN, trelloCard, withFetch } from "./support.js"

const trello = () => nock(API, { reqheaders: { authorization: AUTHORIZATION } })
const callbackUrl = "https://hooks.example.com/trello/newCard"
const onList = { label: "New card", name: "newCard", type: "boardtool/v1/newCard", parameters: { idBoard: BOARD, idList: LIST } }
const onBoard = { ...onList, parameters: { idBoard: BOARD } }
const state = { webhookId: "61a0f0f0f0f0f0f0f0f0f0e1" }
const tokenWebhooks = `/1/tokens/${TOKEN}/webhooks`
/** A webhook as Trello lists it. */
const trelloWebhook = (fields: { id?: string; idModel?: string; callbackURL?: string; active?: boolean } = {}) => ({
  id: state.webhookId,
  description: "New cards",
  idModel: LIST,
  callbackURL: callbackUrl,
  active: true,
  consecutiveFailures: 0,
  firstConsecutiveFailDate: null,
  ...fields
})

// The delivery and its signature: base64 HMAC-SHA1 of body + callback URL with the app secret,
// computed with `openssl dgst -sha1 -hmac trello-app-secret-0123456789 -binary | base64`.
// A delivery as Trello sends it (abridged): the action with its author, and the watched model.
const body =
  `{"action":{"id":"61a0f0f0f0f0f0f0f0f0f0a1","idMemberCreator":"61a0f0f0f0f0f0f0f0f0f0d1","type":"createCard","date":"2026-11-21T10:00:00.000Z",` +
  `"data":{"card":{"id":"${CARD}","name":"Write the launch post","idShort":7,"shortLink":"AbCdEfGh"},"list":{"id":"${LIST}","name":"To Do"},` +
  `"board":{"id":"${BOARD}","name":"Launch","shortLink":"AbCdEfGh"}},` +
  `"memberCreator":{"id":"61a0f0f0f0f0f0f0f0f0f0d1","username":"alice","fullName":"Alice Example","initials":"AE"}},` +
  `"model":{"id":"${LIST}","name":"To Do","closed":false,"idBoard":"${BOARD}","pos":16384}}`
const signature = "0RZOPbcWyRw9ylPWWoJPMZXrDH4="
const delivery = (options: { body?: string; signature?: string | undefined; method?: string; url?: string } = {}) => ({
  method: options.method ?? "POST",
  url: options.url ?? callbackUrl,
  headers: "signature" in options && options.signature === undefined ? {} : { "x-trello-webhook": options.signature ?? signature },
  body: new TextEncoder().encode(options.body ?? body)
})
const handle = (trigger: { label: string; name: string; type: string; parameters: Record<string, unknown> }, request: ReturnType<typeof delivery>, values: object = connection) =>
  // Without the app's secret, only the operator's explicit choice lets unsigned deliveries in.
  withFetch(executor.handleDelivery(trigger, state, request, { allowUnsigned: values !== connection }), values)

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})
afterAll(() => nock.enableNetConnect())

describe("newCard", () => {
  it.effect("Trello's HEAD check of the callback URL is answered 200 before any state exists", () =>
    Effect.gen(function*() {
      // The HEAD comes while enabling, before the webhook (and so the state) exists.
      const result = yield* withFetch(executor.handleDelivery(onList, undefined, delivery({ method: "HEAD", body: "" })))
      expect(result).toEqual({ response: { status: 200 }, events: [] })
    }))

  it.effect("enable: the token's webhooks first, then POST /1/webhooks?callbackURL&idModel=<list>&description; the webhook id is the state", () =>
    Effect.gen(function*() {
      // The token's other webhooks: another model, another URL; neither is this one.
      const scope = trello().get(tokenWebhooks).reply(200, [
        trelloWebhook({ id: "61a0f0f0f0f0f0f0f0f0f0e2", idModel: BOARD }),
        trelloWebhook({ id: "61a0f0f0f0f0f0f0f0f0f0e3", callbackURL: `${callbackUrl}/other` })
      ])
        .post("/1/webhooks")
        .query({ callbackURL: callbackUrl, idModel: LIST, description: `New cards on list ${LIST}` })
        .reply(200, { id: state.webhookId, idModel: LIST, callbackURL: callbackUrl, active: true, consecutiveFailures: 0 })
      expect(yield* withFetch(executor.enableTrigger(onList, callbackUrl))).toEqual(state)
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("enable on a board watches the board; neither board nor list is InvalidInput", () =>
    Effect.gen(function*() {
      const scope = trello().get(tokenWebhooks).reply(200, []).post("/1/webhooks").query((q) => q["idModel"] === BOARD)
        .reply(200, { id: state.webhookId, idModel: BOARD, callbackURL: callbackUrl })
      yield* withFetch(executor.enableTrigger(onBoard, callbackUrl))
      expect(scope.isDone()).toBe(true)
      const error = yield* Effect.flip(withFetch(executor.enableTrigger({ ...onList, parameters: {} }, callbackUrl)))
      expect(error.message).toBe("step \"newCard\" (boardtool/v1/newCard): idBoard: a board or a list is required")
    }))

  it.effect("enable reuses the token's webhook for the same model and URL (ids in any case): no POST", () =>
    Effect.gen(function*() {
      // nock refuses any request not pinned here: a POST would fail the enable.
      const scope = trello().get(tokenWebhooks).reply(200, [trelloWebhook({ idModel: LIST.toUpperCase() })])
      expect(yield* withFetch(executor.enableTrigger(onList, callbackUrl))).toEqual(state)
      expect(scope.isDone()).toBe(true)
      expect(nock.pendingMocks()).toEqual([])
    }))

  it.effect("enable reactivates the token's inactive webhook for the same model and URL: PUT ?active=true", () =>
    Effect.gen(function*() {
      const scope = trello().get(tokenWebhooks).reply(200, [trelloWebhook({ active: false })])
        .put(`/1/webhooks/${state.webhookId}`).query({ active: "true" }).reply(200, trelloWebhook())
      expect(yield* withFetch(executor.enableTrigger(onList, callbackUrl))).toEqual(state)
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("the token in the listing's path never shows in an error", () =>
    Effect.gen(function*() {
      // A 404 is not retried; its body echoes the token, as a proxy might.
      trello().get(tokenWebhooks).reply(404, `no such token ${TOKEN}`)
      const error = yield* Effect.flip(withFetch(executor.enableTrigger(onList, callbackUrl)))
      expect(error).toMatchObject({ _tag: "NotFound", request: { method: "GET", path: "/tokens/[redacted]/webhooks" } })
      expect(JSON.stringify(error)).not.toContain(TOKEN)
      expect(error.message).not.toContain(TOKEN)
    }))

  it.effect("disable: DELETE /1/webhooks/{id}; a 404 means it is already gone", () =>
    Effect.gen(function*() {
      const scope = trello()
        .delete(`/1/webhooks/${state.webhookId}`).reply(200, { _value: null })
        .delete(`/1/webhooks/${state.webhookId}`).reply(404, "The requested resource was not found.")
      yield* withFetch(executor.disableTrigger(onList, state))
      yield* withFetch(executor.disableTrigger(onList, state))
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("HEAD (Trello's check on creation) is answered 200", () =>
    Effect.gen(function*() {
      expect(yield* handle(onList, delivery({ method: "HEAD", body: "" }))).toEqual({ response: { status: 200 }, events: [] })
    }))

  it.effect("a signed createCard delivery on the watched list fetches the card and emits it, keyed by action.id", () =>
    Effect.gen(function*() {
      const scope = trello().get(`/1/cards/${CARD}`).reply(200, trelloCard)
      expect(yield* handle(onList, delivery())).toEqual({
        response: { status: 200 },
        events: [{ id: "61a0f0f0f0f0f0f0f0f0f0a1", output: card }]
      })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("a missing, wrong or other-URL signature is answered 401 and runs nothing", () =>
    Effect.gen(function*() {
      const sent: Array<string> = []
      nock(/.*/).persist().get(/.*/).reply(200, trelloCard)
        .on("request", (req: { method: string; path: string }) => sent.push(`${req.method} ${req.path}`))
      for (const request of [
        delivery({ signature: undefined }),
        delivery({ signature: "AAAAp3kyotmptZzyFHR5DX95H4yU=" }),
        delivery({ url: callbackUrl + "?x=1" }),
        delivery({ body: body.replace("createCard", "updateCard") })
      ]) {
        const result = yield* handle(onList, request)
        expect(result.response.status).toBe(401)
        expect(result.events).toEqual([])
      }
      expect(sent).toEqual([])
    }))

  it.effect("without the app's secret, a delivery is refused unless unsigned ones are allowed", () =>
    Effect.gen(function*() {
      const noSecret = { key: connection.key, token: connection.token }
      const refused = yield* withFetch(executor.handleDelivery(onList, state, delivery({ signature: undefined })), noSecret)
      expect(refused).toEqual({ response: { status: 401, body: "the connection has no secret to verify deliveries with" }, events: [] })
      trello().get(`/1/cards/${CARD}`).reply(200, trelloCard)
      expect((yield* handle(onList, delivery({ signature: undefined }), noSecret)).events).toHaveLength(1)
    }))

  it.effect("the card itself decides: one on another list (whatever the delivery says) or deleted since emits nothing", () =>
    Effect.gen(function*() {
      const noSecret = { key: connection.key, token: connection.token }
      trello().get(`/1/cards/${CARD}`).reply(200, { ...trelloCard, idList: "61a0f0f0f0f0f0f0f0f0f099", idBoard: "61a0f0f0f0f0f0f0f0f0f098" })
      expect(yield* handle(onList, delivery(), noSecret)).toEqual({ response: { status: 200 }, events: [] })
      trello().get(`/1/cards/${CARD}`).reply(404, "The requested resource was not found.")
      expect(yield* handle(onList, delivery(), noSecret)).toEqual({ response: { status: 200 }, events: [] })
    }))

  it.effect("enable on a list alone; an id in upper case is the same id", () =>
    Effect.gen(function*() {
      const scope = trello().get(tokenWebhooks).reply(200, []).post("/1/webhooks").query((q) => q["idModel"] === LIST.toUpperCase())
        .reply(200, { id: state.webhookId, idModel: LIST, callbackURL: callbackUrl })
      const upper = { ...onList, parameters: { idList: LIST.toUpperCase() } }
      yield* withFetch(executor.enableTrigger(upper, callbackUrl))
      expect(scope.isDone()).toBe(true)
      trello().get(`/1/cards/${CARD}`).reply(200, trelloCard)
      expect((yield* handle(upper, delivery())).events).toHaveLength(1)
    }))

  it.effect("other actions, other lists and non-Trello bodies emit nothing", () =>
    Effect.gen(function*() {
      const noSecret = { key: connection.key, token: connection.token }
      const other = body.replace(`"list":{"id":"${LIST}","name":"To Do"}`, `"list":{"id":"61a0f0f0f0f0f0f0f0f0f099","name":"Later"}`)
      expect((yield* handle(onList, delivery({ body: other }), noSecret)).events).toEqual([])
      expect((yield* handle(onList, delivery({ body: body.replace("createCard", "updateCard") }), noSecret)).events).toEqual([])
      expect((yield* handle(onList, delivery({ body: "not json" }), noSecret)).response.status).toBe(400)
      // Watching the board, a card in any of its lists counts.
      trello().get(`/1/cards/${CARD}`).reply(200, trelloCard)
      expect((yield* handle(onBoard, delivery({ body }), noSecret)).events).toHaveLength(1)
    }))
})

describe("newCard kept alive: check and catch-up", () => {
  /** A createCard action as Trello's action lists give it. */
  const action = (id: string, date: string, idList = LIST) => ({
    id,
    idMemberCreator: "61a0f0f0f0f0f0f0f0f0f0d1",
    type: "createCard",
    date,
    data: { card: { id: CARD, name: "Write the launch post" }, list: { id: idList, name: "To Do" }, board: { id: BOARD, name: "Launch" } },
    memberCreator: { id: "61a0f0f0f0f0f0f0f0f0f0d1", username: "alice", fullName: "Alice Example" }
  })

  it.effect("check: GET /1/webhooks/{id} answers active or inactive (Trello's `active`); a 404 is gone", () =>
    Effect.gen(function*() {
      const scope = trello()
        .get(`/1/webhooks/${state.webhookId}`).reply(200, trelloWebhook())
        .get(`/1/webhooks/${state.webhookId}`).reply(200, trelloWebhook({ active: false }))
        .get(`/1/webhooks/${state.webhookId}`).reply(404, "The requested resource was not found.")
      const checked = []
      for (let i = 0; i < 3; i++) checked.push(yield* withFetch(executor.checkTrigger(onList, state)))
      expect(checked.map((option) => option._tag === "Some" ? option.value : "none")).toEqual(["active", "inactive", "gone"])
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("catch-up on a board: GET /1/boards/{id}/actions?filter=createCard&since=<ISO>&limit=1000, oldest first, keyed by the action id", () =>
    Effect.gen(function*() {
      const since = new Date("2026-11-21T09:00:00.000Z")
      const scope = trello()
        .get(`/1/boards/${BOARD}/actions`)
        .query({ filter: "createCard", since: since.toISOString(), limit: "1000" })
        .reply(200, [action("61a0f0f0f0f0f0f0f0f0f0a3", "2026-11-21T10:02:00.000Z"), action("61a0f0f0f0f0f0f0f0f0f0a2", "2026-11-21T10:01:00.000Z")])
        .get(`/1/cards/${CARD}`).times(2).reply(200, trelloCard)
      const events = yield* withFetch(executor.catchUp(onBoard, since))
      expect(events._tag === "Some" ? events.value.map((event) => event.id) : "none").toEqual(["61a0f0f0f0f0f0f0f0f0f0a2", "61a0f0f0f0f0f0f0f0f0f0a3"])
      expect(events._tag === "Some" ? events.value[0]!.output : undefined).toEqual(card)
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("catch-up on a board pages with before=<the last id> while a page is full", () =>
    Effect.gen(function*() {
      const since = new Date("2026-11-21T09:00:00.000Z")
      // A full page of actions naming no card (none of them the trigger's: nothing read back).
      const full = Array.from({ length: 1000 }, (_, i) => ({
        ...action(`61a0f0f0f0f0f0f0f0f${(99999 - i).toString(16).padStart(5, "0")}`, "2026-11-21T10:00:00.000Z"),
        data: {}
      }))
      const scope = trello()
        .get(`/1/boards/${BOARD}/actions`).query({ filter: "createCard", since: since.toISOString(), limit: "1000" }).reply(200, full)
        .get(`/1/boards/${BOARD}/actions`).query({ filter: "createCard", since: since.toISOString(), limit: "1000", before: full[999]!.id })
        .reply(200, [action("61a0f0f0f0f0f0f0f0f0f0a2", "2026-11-21T09:30:00.000Z")])
        .get(`/1/cards/${CARD}`).reply(200, trelloCard)
      const events = yield* withFetch(executor.catchUp(onBoard, since))
      expect(events._tag === "Some" ? events.value.map((event) => event.id) : "none").toEqual(["61a0f0f0f0f0f0f0f0f0f0a2"])
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("catch-up on a list: GET /1/lists/{id}/actions?filter=createCard (no `since` in Trello's document): older actions dropped", () =>
    Effect.gen(function*() {
      const scope = trello()
        .get(`/1/lists/${LIST}/actions`).query({ filter: "createCard" })
        .reply(200, [action("61a0f0f0f0f0f0f0f0f0f0a3", "2026-11-21T10:02:00.000Z"), action("61a0f0f0f0f0f0f0f0f0f0a1", "2026-11-21T08:00:00.000Z")])
        .get(`/1/cards/${CARD}`).reply(200, trelloCard)
      const events = yield* withFetch(executor.catchUp({ ...onList, parameters: { idList: LIST } }, new Date("2026-11-21T09:00:00.000Z")))
      expect(events._tag === "Some" ? events.value.map((event) => event.id) : "none").toEqual(["61a0f0f0f0f0f0f0f0f0f0a3"])
      expect(scope.isDone()).toBe(true)
    }))
})
