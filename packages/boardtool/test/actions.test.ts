import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import { Component } from "@x/core"
import * as Effect from "effect/Effect"
import nock from "nock"
import { boardtool } from "../src/index.js"
import { API, AUTHORIZATION, BOARD, CARD, card, executor, KEY, LIST, run, TOKEN, trelloBoard, trelloCard, withFetch } from "./support.js"

const trello = () => nock(API, { reqheaders: { authorization: AUTHORIZATION, accept: "application/json" } })

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})
afterAll(() => nock.enableNetConnect())

describe("boardtool actions: the wire", () => {
  it.effect("createBoard: POST /1/boards with name and desc in a form body, credentials in the header only, the Board decoded", () =>
    Effect.gen(function*() {
      const scope = trello().post("/1/boards", "name=Launch&desc=Q4+launch+%C3%A9t%C3%A9")
        .matchHeader("content-type", "application/x-www-form-urlencoded")
        .reply(200, trelloBoard)
      expect(yield* run("createBoard", { name: "Launch", desc: "Q4 launch été" })).toMatchObject({ id: BOARD, name: "Launch", closed: false })
      // A name alone sends no desc at all.
      trello().post("/1/boards", "name=Solo").reply(200, trelloBoard)
      yield* run("createBoard", { name: "Solo" })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("createCard: POST /1/cards with idList, name, desc in a form body (idBoard is not sent), the Card decoded", () =>
    Effect.gen(function*() {
      const scope = trello()
        .post("/1/cards", { idList: LIST, name: trelloCard.name, desc: trelloCard.desc })
        .reply(200, trelloCard)
        .post("/1/cards", `idList=${LIST}`)
        .reply(200, trelloCard)
      const output = yield* run("createCard", { idBoard: BOARD, idList: LIST, name: trelloCard.name, desc: trelloCard.desc })
      // The created card: its five fields among the others (cardsSimulator and cards tests decode all of them).
      expect(output).toMatchObject(card)
      yield* run("createCard", { idList: LIST })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("getCard: GET /1/cards/{id}, the Card's five fields", () =>
    Effect.gen(function*() {
      const scope = trello().get(`/1/cards/${CARD}`).reply(200, trelloCard)
      expect(yield* run("getCard", { idBoard: BOARD, id: CARD })).toMatchObject(card)
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("dynamic options: boards, a board's lists and cards (label = name, value = id)", () =>
    Effect.gen(function*() {
      const scope = trello()
        .get("/1/members/me/boards").query({ filter: "open", fields: "name" }).reply(200, [{ id: BOARD, name: "Roadmap" }])
        .get(`/1/boards/${BOARD}/lists`).query({ fields: "name" }).reply(200, [{ id: LIST, name: "To Do" }])
        .get(`/1/boards/${BOARD}/cards`).query({ fields: "name" }).reply(200, [{ id: CARD, name: "Launch post" }])
      const options = (type: string, property: string, params: Record<string, unknown>) =>
        withFetch(executor.options(`boardtool/v1/${type}`, property, params))
      expect(yield* options("createCard", "idBoard", {})).toEqual([{ label: "Roadmap", value: BOARD }])
      expect(yield* options("createCard", "idList", { idBoard: BOARD })).toEqual([{ label: "To Do", value: LIST }])
      expect(yield* options("getCard", "id", { idBoard: BOARD })).toEqual([{ label: "Launch post", value: CARD }])
      expect(yield* options("getCard", "id", {})).toEqual([])
      expect(scope.isDone()).toBe(true)
      // A board that is not an id is refused before anything is sent.
      const bad = yield* Effect.flip(options("createCard", "idList", { idBoard: "../members/me" }))
      expect(bad.message).toBe("options of idList: idBoard: must be a Trello id (24 hexadecimal digits)")
    }))
})

describe("boardtool actions: errors", () => {
  it.effect("ids that are not 24 hex digits, and every other bad input, are rejected before any request", () =>
    Effect.gen(function*() {
      const sent: Array<string> = []
      nock(/.*/).persist().get(/.*/).reply(200, {}).post(/.*/).reply(200, {})
        .on("request", (req: { method: string; path: string }) => sent.push(`${req.method} ${req.path}`))
      const bad = yield* Effect.flip(run("getCard", { id: "123" }))
      expect(bad.message).toBe("step \"getCard\" (boardtool/v1/getCard): id: must be a Trello id (24 hexadecimal digits)")
      const many = yield* Effect.flip(run("createCard", { idBoard: "x", name: 5, colour: "red" }))
      expect(many._tag === "InvalidInput" && many.issues.map((i) => i.path).sort()).toEqual(["colour", "idBoard", "idList", "name"])
      const empty = yield* Effect.flip(run("createBoard", { name: "" }))
      expect(empty.message).toContain("name: must not be empty")
      const long = yield* Effect.flip(run("createBoard", { name: "x".repeat(16385) }))
      expect(long.message).toContain("name: must be at most 16384 characters long")
      expect(sent).toEqual([])
    }))

  it.effect("Trello's plain-text errors become the matching typed errors, with their text", () =>
    Effect.gen(function*() {
      trello().get(`/1/cards/${CARD}`).reply(400, "invalid id", { "content-type": "text/plain" })
      expect(yield* Effect.flip(run("getCard", { id: CARD }))).toMatchObject({
        _tag: "InvalidInput",
        message: "invalid id",
        request: { method: "GET", path: `/cards/${CARD}` }
      })
      trello().get(`/1/cards/${CARD}`).reply(401, "invalid token", { "content-type": "text/plain" })
      expect(yield* Effect.flip(run("getCard", { id: CARD }))).toMatchObject({ _tag: "AuthenticationFailed", message: "invalid token" })
      trello().post("/1/boards").reply(401, "unauthorized permission requested")
      expect(yield* Effect.flip(run("createBoard", { name: "x" }))).toMatchObject({
        _tag: "PermissionDenied",
        message: "unauthorized permission requested",
        status: 401
      })
      trello().get(`/1/cards/${CARD}`).reply(404, "The requested resource was not found.")
      expect(yield* Effect.flip(run("getCard", { id: CARD }))).toMatchObject({ _tag: "NotFound" })
    }))

  it.live("a 429 with Trello's JSON body is retried after Retry-After; a POST too, since Trello did not process it", () =>
    Effect.gen(function*() {
      const scope = trello()
        .post("/1/cards").reply(429, { error: "API_TOKEN_LIMIT_EXCEEDED", message: "Rate limit exceeded" }, { "retry-after": "0" })
        .post("/1/cards").reply(200, trelloCard)
      expect(yield* run("createCard", { idList: LIST })).toMatchObject(card)
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("no credential appears in an error, even when Trello echoes it", () =>
    Effect.gen(function*() {
      trello().get(`/1/cards/${CARD}`).reply(401, `invalid token ${TOKEN} for key ${KEY}`)
      const error = yield* Effect.flip(run("getCard", { id: CARD }))
      expect(error.message).toBe("invalid token [redacted] for key [redacted]")
      expect(JSON.stringify(error) + String(error)).not.toContain(TOKEN)
    }))
})

describe("boardtool definition", () => {
  it("describes itself: type, category, connection, actions, options with dependsOn, the trigger", () => {
    const d = Component.describe(boardtool)
    expect(d).toMatchObject({
      type: "boardtool/v1",
      category: "Productivity and Collaboration",
      customAction: true,
      connection: {
        kind: "CUSTOM",
        defaultBaseUrl: "https://api.trello.com/1",
        props: {
          key: { kind: "STRING", title: "Key", required: true, secret: true },
          token: { kind: "STRING", title: "Token", required: true, secret: true },
          secret: { kind: "STRING", required: false, secret: true },
          baseUrl: { kind: "STRING", required: false }
        },
        rateLimits: [{ scope: "token", limit: 100, intervalMillis: 10_000 }, { scope: "key", limit: 300, intervalMillis: 10_000 }]
      }
    })
    const names = d.actions.map((a) => a.name)
    // By name (each area's test names its own), the custom action last.
    expect(names).toEqual(expect.arrayContaining(["createBoard", "createCard", "getCard", "listBoardActions", "archiveAllCards", "addAttachment", "downloadAttachment"]))
    expect(names.slice(0, -1)).toEqual([...names.slice(0, -1)].sort())
    expect(names.at(-1)).toBe("customAction")
    expect(d.actions.find((a) => a.name === "listBoardActions")!.props["limit"]).toMatchObject({ kind: "INTEGER", defaultValue: 50 })
    const createCard = d.actions.find((a) => a.name === "createCard")!
    expect(createCard.props["idList"]).toMatchObject({ required: true, dynamicOptions: { dependsOn: ["idBoard"] } })
    expect(createCard.props["idBoard"]).toMatchObject({ required: false, dynamicOptions: { dependsOn: [] } })
    // An answer requires what identifies the record and what the seed names; the rest has defaults or may be absent.
    expect(createCard.output).toMatchObject({ required: ["id", "desc", "idBoard", "idList", "name"] })
    expect(createCard.output).toMatchObject({ properties: { labels: { type: "array" }, shortUrl: { type: "string" } } })
    expect(d.actions.find((a) => a.name === "createBoard")!.output).toMatchObject({ required: ["id"] })
    // By name: two polled, the others webhooks.
    const polled = { cardDueSoon: 300_000, newNotification: 60_000 } as Record<string, number>
    expect(d.triggers).toEqual(
      ["attachmentAdded", "boardActivity", "cardArchived", "cardDueSoon", "cardMoved", "cardUpdated", "checklistItemCompleted", "commentAdded",
        "labelAddedToCard", "memberAddedToCard", "newBoardInWorkspace", "newCard", "newLabel", "newList", "newNotification"].map((name) =>
        expect.objectContaining(
          polled[name] === undefined ? { name, kind: "DYNAMIC_WEBHOOK", sample: true } : { name, kind: "POLLING", intervalMillis: polled[name], sample: true }
        ))
    )
    // boardActivity's types are a choice of Trello's action types.
    const types = d.triggers.find((t) => t.name === "boardActivity")!.props["types"] as { items?: { choices?: ReadonlyArray<{ value: string }> } }
    expect(types.items?.choices?.map((c) => c.value)).toEqual(expect.arrayContaining(["createCard", "updateCard", "commentCard", "addToOrganizationBoard"]))
  })
})

describe("boardtool listBoardActions: paged with before", () => {
  // Ids that fall as the actions get older, as Trello's ObjectIds do.
  const actionAt = (n: number) => ({
    id: `61a0f0f0f0f0f0f0f0${String(n).padStart(6, "0")}`,
    idMemberCreator: "5eed00000000000000000001",
    type: "commentCard",
    date: "2026-11-21T10:00:00.000Z",
    data: { text: `comment ${n}`, card: { id: CARD } },
    memberCreator: { id: "5eed00000000000000000001", username: "ada" }
  })
  const newestFirst = (from: number, count: number) => Array.from({ length: count }, (_, i) => actionAt(from - i))

  it.effect("GET /1/boards/{id}/actions with filter, limit 1000, then before the last id; a short page ends it", () =>
    Effect.gen(function*() {
      const scope = trello()
        .get(`/1/boards/${BOARD}/actions`).query({ filter: "commentCard,createCard", limit: 1000 }).reply(200, newestFirst(1500, 1000))
        .get(`/1/boards/${BOARD}/actions`).query({ filter: "commentCard,createCard", limit: 1000, before: actionAt(501).id }).reply(200, newestFirst(500, 200))
      const output = (yield* run("listBoardActions", { idBoard: BOARD, filter: "commentCard,createCard", limit: 5000 })) as { actions: Array<{ id: string; data: unknown }> }
      expect(output.actions).toHaveLength(1200)
      expect(output.actions[1199]).toEqual({
        id: actionAt(301).id, type: "commentCard", date: "2026-11-21T10:00:00.000Z", idMemberCreator: "5eed00000000000000000001", data: { text: "comment 301", card: { id: CARD } }
      })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("the default limit is Trello's 50, one request; a cap of 1200 asks the second page for 200 and stops there", () =>
    Effect.gen(function*() {
      const one = trello().get(`/1/boards/${BOARD}/actions`).query({ limit: 50 }).reply(200, newestFirst(50, 50))
      expect(((yield* run("listBoardActions", { idBoard: BOARD })) as { actions: Array<unknown> }).actions).toHaveLength(50)
      expect(one.isDone()).toBe(true)
      const since = "2026-11-01T00:00:00Z"
      const two = trello()
        .get(`/1/boards/${BOARD}/actions`).query({ since, limit: 1000 }).reply(200, newestFirst(3000, 1000))
        .get(`/1/boards/${BOARD}/actions`).query({ since, limit: 200, before: actionAt(2001).id }).reply(200, newestFirst(2000, 200))
      expect(((yield* run("listBoardActions", { idBoard: BOARD, since, limit: 1200 })) as { actions: Array<unknown> }).actions).toHaveLength(1200)
      expect(two.isDone()).toBe(true)
    }))

  it.effect("bad input is refused before any request; a Trello error on a later page fails the step, typed", () =>
    Effect.gen(function*() {
      const bad = yield* Effect.flip(run("listBoardActions", { idBoard: "nope", filter: "createCard; drop", limit: 5001 }))
      expect(bad._tag === "InvalidInput" && bad.issues.map((i) => i.path)).toEqual(["idBoard", "filter", "limit"])
      trello()
        .get(`/1/boards/${BOARD}/actions`).query({ limit: 1000 }).reply(200, newestFirst(3000, 1000))
        .get(`/1/boards/${BOARD}/actions`).query({ limit: 1000, before: actionAt(2001).id }).reply(401, "invalid token")
      const error = yield* Effect.flip(run("listBoardActions", { idBoard: BOARD, limit: 2000 }))
      expect(error).toMatchObject({ _tag: "AuthenticationFailed", status: 401 })
    }))
})

describe("boardtool archiveAllCards: one PUT per open card of the list", () => {
  const cardIds = ["61a0f0f0f0f0f0f0f0f0f0c1", "61a0f0f0f0f0f0f0f0f0f0c2", "61a0f0f0f0f0f0f0f0f0f0c3"]
  const listed = cardIds.map((id, i) => ({ id, name: `Card ${i + 1}` }))
  const archived = (id: string, name: string) => ({ ...trelloCard, id, name, closed: true })

  it.effect("GET /1/lists/{id}/cards with fields=name, then PUT /1/cards/{id}?closed=true for each; a 404 is that card's result and the others are archived", () =>
    Effect.gen(function*() {
      const scope = trello()
        .get(`/1/lists/${LIST}/cards`).query({ fields: "name" }).reply(200, listed)
        .put(`/1/cards/${cardIds[0]}`).query({ closed: "true" }).reply(200, archived(cardIds[0]!, "Card 1"))
        .put(`/1/cards/${cardIds[1]}`).query({ closed: "true" }).reply(404, "The requested resource was not found.")
        .put(`/1/cards/${cardIds[2]}`).query({ closed: "true" }).reply(200, archived(cardIds[2]!, "Card 3"))
      const output = yield* run("archiveAllCards", { idBoard: BOARD, idList: LIST })
      expect(scope.isDone()).toBe(true)
      expect(output).toEqual({
        archived: 2,
        failed: 1,
        results: [
          { id: cardIds[0], ok: true, output: { id: cardIds[0], name: "Card 1" } },
          { id: cardIds[1], ok: false, error: { _tag: "NotFound", message: "The requested resource was not found." } },
          { id: cardIds[2], ok: true, output: { id: cardIds[2], name: "Card 3" } }
        ]
      })
    }))

  it.live("a card answered 429 is retried and archived; an empty list sends no PUT", () =>
    Effect.gen(function*() {
      const scope = trello()
        .get(`/1/lists/${LIST}/cards`).query({ fields: "name" }).reply(200, listed.slice(0, 1))
        .put(`/1/cards/${cardIds[0]}`).query({ closed: "true" })
        .reply(429, { error: "API_TOKEN_LIMIT_EXCEEDED", message: "Rate limit exceeded" }, { "retry-after": "0" })
        .put(`/1/cards/${cardIds[0]}`).query({ closed: "true" }).reply(200, archived(cardIds[0]!, "Card 1"))
        .get(`/1/lists/${LIST}/cards`).query({ fields: "name" }).reply(200, [])
      expect(yield* run("archiveAllCards", { idList: LIST })).toEqual({
        archived: 1,
        failed: 0,
        results: [{ id: cardIds[0], ok: true, output: { id: cardIds[0], name: "Card 1" } }]
      })
      expect(yield* run("archiveAllCards", { idList: LIST })).toEqual({ archived: 0, failed: 0, results: [] })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("a list that cannot be read fails the action: nothing was archived", () =>
    Effect.gen(function*() {
      const scope = trello().get(`/1/lists/${LIST}/cards`).query({ fields: "name" }).reply(404, "The requested resource was not found.")
      const error = yield* Effect.flip(run("archiveAllCards", { idList: LIST }))
      expect(error).toMatchObject({ _tag: "NotFound" })
      expect(scope.isDone()).toBe(true)
    }))
})
