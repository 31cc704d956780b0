/** Members, attachments and custom fields: each action's wire request pinned with nock, and Trello's response decoded. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import nock from "nock"
import { API, AUTHORIZATION, BOARD, CARD, executor, run, withFetch } from "./support.js"

const MEMBER = "61a0f0f0f0f0f0f0f0f0f0d1"
const MEMBERSHIP = "61a0f0f0f0f0f0f0f0f0f0e1"
const ATTACHMENT = "61a0f0f0f0f0f0f0f0f0f0a1"
const FIELD = "61a0f0f0f0f0f0f0f0f0f0f1"
const OPTION = "61a0f0f0f0f0f0f0f0f0f0f2"
const ITEM = "61a0f0f0f0f0f0f0f0f0f0f3"

const trello = () => nock(API, { reqheaders: { authorization: AUTHORIZATION } })
const fields = "username,fullName,initials,avatarUrl,url"

/** A member as Trello answers `GET /members/{id}` (abridged). */
const trelloMember = {
  id: MEMBER, username: "alice", fullName: "Alice Martin", initials: "AM", avatarHash: null, avatarUrl: null,
  confirmed: true, memberType: "normal", url: "https://trello.com/alice", bio: "", idBoards: [BOARD]
}
const member = { id: MEMBER, username: "alice", fullName: "Alice Martin", initials: "AM", avatarUrl: null, url: "https://trello.com/alice" }
/** A board's member list carries three fields only. */
const short = { id: MEMBER, fullName: "Alice Martin", username: "alice" }
const shortMember = { ...short, initials: null, avatarUrl: null, url: null }
const boardMembers = {
  id: BOARD,
  members: [short],
  memberships: [{ id: MEMBERSHIP, idMember: MEMBER, memberType: "observer", unconfirmed: false, deactivated: false }]
}
const priority = {
  id: FIELD, idModel: BOARD, modelType: "board", fieldGroup: "f6177ba6839d6fff0f73922c1cea105e793fda8a1433d466104dacc0b7c56955",
  display: { cardFront: true }, name: "Priority", pos: 16384, type: "list", isSuggestedField: false,
  options: [{ id: OPTION, idCustomField: FIELD, value: { text: "High" }, color: "red", pos: 16384 }]
}
const estimate = { ...priority, id: "61a0f0f0f0f0f0f0f0f0f0f4", name: "Estimate", type: "number", options: undefined }
const decodedPriority = { id: FIELD, idModel: BOARD, name: "Priority", type: "list", options: [{ id: OPTION, value: { text: "High" }, color: "red" }], display: { cardFront: true } }

beforeAll(() => nock.disableNetConnect())
afterEach(() => nock.cleanAll())
afterAll(() => nock.enableNetConnect())

describe("members: the wire", () => {
  it.effect("getMe: GET /1/members/me with the member's fields and email", () =>
    Effect.gen(function*() {
      const scope = trello().get("/1/members/me").query({ fields: `${fields},email` }).reply(200, { ...trelloMember, email: "alice@example.com" })
      expect(yield* run("getMe", {})).toEqual({ ...member, email: "alice@example.com" })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("getMember: GET /1/members/{id or username}; a malformed one is refused before any request", () =>
    Effect.gen(function*() {
      const scope = trello().get("/1/members/alice").query({ fields }).reply(200, trelloMember)
        .get(`/1/members/${MEMBER}`).query({ fields }).reply(200, trelloMember)
      expect(yield* run("getMember", { idMember: "alice" })).toEqual(member)
      expect(yield* run("getMember", { idMember: MEMBER })).toEqual(member)
      expect(scope.isDone()).toBe(true)
      expect((yield* Effect.flip(run("getMember", { idMember: "../boards" })))._tag).toBe("InvalidInput")
    }))

  it.effect("searchMembers: GET /1/search/members with query, limit and idBoard; a limit over 20 is refused", () =>
    Effect.gen(function*() {
      const scope = trello().get("/1/search/members").query({ query: "ali", limit: 5, idBoard: BOARD }).reply(200, [trelloMember])
      expect(yield* run("searchMembers", { query: "ali", limit: 5, idBoard: BOARD })).toEqual({ members: [member] })
      expect(scope.isDone()).toBe(true)
      expect((yield* Effect.flip(run("searchMembers", { query: "ali", limit: 21 })))._tag).toBe("InvalidInput")
    }))

  it.effect("listBoardMembers: GET /1/boards/{id}/members (id, fullName, username)", () =>
    Effect.gen(function*() {
      const scope = trello().get(`/1/boards/${BOARD}/members`).reply(200, [short])
      expect(yield* run("listBoardMembers", { idBoard: BOARD })).toEqual({ members: [shortMember] })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("addBoardMember: PUT /1/boards/{id}/members/{idMember}?type=; by email PUT /1/boards/{id}/members?email&type with fullName in JSON", () =>
    Effect.gen(function*() {
      const scope = trello()
        .put(`/1/boards/${BOARD}/members/${MEMBER}`).query({ type: "observer" }).reply(200, boardMembers)
        .put(`/1/boards/${BOARD}/members`, { fullName: "Dana Invited" }).query({ email: "dana@example.com", type: "normal" })
        .matchHeader("content-type", "application/json")
        .reply(200, boardMembers)
      const expected = { id: BOARD, members: [shortMember], memberships: [{ id: MEMBERSHIP, idMember: MEMBER, memberType: "observer", unconfirmed: false }] }
      expect(yield* run("addBoardMember", { idBoard: BOARD, idMember: MEMBER, type: "observer" })).toEqual(expected)
      expect(yield* run("addBoardMember", { idBoard: BOARD, email: "dana@example.com", fullName: "Dana Invited" })).toEqual(expected)
      expect(scope.isDone()).toBe(true)
      // Neither or both of a member and an email, a bad role, a name without an email: refused before anything is sent.
      for (const bad of [{ idBoard: BOARD }, { idBoard: BOARD, idMember: MEMBER, email: "a@b.co" }, { idBoard: BOARD, idMember: MEMBER, type: "owner" }, { idBoard: BOARD, idMember: MEMBER, fullName: "X" }]) {
        expect((yield* Effect.flip(run("addBoardMember", bad)))._tag).toBe("InvalidInput")
      }
    }))

  it.effect("removeBoardMember: DELETE /1/boards/{id}/members/{idMember}; Trello's 403 is PermissionDenied with its message", () =>
    Effect.gen(function*() {
      const scope = trello().delete(`/1/boards/${BOARD}/members/${MEMBER}`).reply(200, boardMembers)
        .delete(`/1/boards/${BOARD}/members/${MEMBER}`).reply(403, "Not enough admins", { "content-type": "text/plain" })
      expect(yield* run("removeBoardMember", { idBoard: BOARD, idMember: MEMBER })).toBeNull()
      const error = yield* Effect.flip(run("removeBoardMember", { idBoard: BOARD, idMember: MEMBER }))
      expect([error._tag, error.message]).toEqual(["PermissionDenied", "Not enough admins"])
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("listCardMembers: GET /1/cards/{id}/members with the member fields", () =>
    Effect.gen(function*() {
      const scope = trello().get(`/1/cards/${CARD}/members`).query({ fields }).reply(200, [trelloMember])
      expect(yield* run("listCardMembers", { idCard: CARD })).toEqual({ members: [member] })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("addCardMember: POST /1/cards/{id}/idMembers?value=; a member not on the board is Trello's 400, an InvalidInput with its message", () =>
    Effect.gen(function*() {
      const scope = trello().post(`/1/cards/${CARD}/idMembers`).query({ value: MEMBER }).reply(200, [trelloMember])
        .post(`/1/cards/${CARD}/idMembers`).query({ value: MEMBER }).reply(400, "member not on board", { "content-type": "text/plain" })
      expect(yield* run("addCardMember", { idCard: CARD, idMember: MEMBER })).toEqual({ members: [member] })
      const error = yield* Effect.flip(run("addCardMember", { idCard: CARD, idMember: MEMBER }))
      expect([error._tag, error.message]).toEqual(["InvalidInput", "member not on board"])
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("removeCardMember: DELETE /1/cards/{id}/idMembers/{idMember}", () =>
    Effect.gen(function*() {
      const scope = trello().delete(`/1/cards/${CARD}/idMembers/${MEMBER}`).reply(200, [])
      expect(yield* run("removeCardMember", { idCard: CARD, idMember: MEMBER })).toBeNull()
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("dynamic options: a board's members as name (@username), a card's attachments, a board's custom fields as name (kind)", () =>
    Effect.gen(function*() {
      const scope = trello()
        .get(`/1/boards/${BOARD}/members`).reply(200, [short])
        .get(`/1/cards/${CARD}/attachments`).reply(200, [{ id: ATTACHMENT, name: "Spec", url: "https://example.test/spec", isUpload: false, date: "2026-11-21T10:00:00.000Z" }])
        .get(`/1/boards/${BOARD}/customFields`).reply(200, [priority])
      const options = (type: string, property: string, params: Record<string, unknown>) =>
        withFetch(executor.options(`boardtool/v1/${type}`, property, params))
      expect(yield* options("addCardMember", "idMember", { idBoard: BOARD })).toEqual([{ label: "Alice Martin (@alice)", value: MEMBER }])
      expect(yield* options("getAttachment", "idAttachment", { idCard: CARD })).toEqual([{ label: "Spec", value: ATTACHMENT }])
      expect(yield* options("deleteCustomField", "idCustomField", { idBoard: BOARD })).toEqual([{ label: "Priority (list)", value: FIELD }])
      expect(scope.isDone()).toBe(true)
    }))
})

describe("attachments: list, get, delete on the wire", () => {
  const link = {
    id: ATTACHMENT, bytes: null, date: "2026-11-21T10:00:00.000Z", edgeColor: null, idMember: MEMBER, isUpload: false,
    mimeType: "", name: "Spec", previews: [], pos: 16384, url: "https://example.test/spec", fileName: null
  }
  const decoded = { id: ATTACHMENT, name: "Spec", url: "https://example.test/spec", isUpload: false, mimeType: "", bytes: null, fileName: null, date: link.date }

  it.effect("listAttachments: GET /1/cards/{id}/attachments", () =>
    Effect.gen(function*() {
      const scope = trello().get(`/1/cards/${CARD}/attachments`).reply(200, [link])
      expect(yield* run("listAttachments", { idCard: CARD })).toEqual({ attachments: [decoded] })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("getAttachment: GET /1/cards/{id}/attachments/{idAttachment}; Trello's 404 is NotFound", () =>
    Effect.gen(function*() {
      const scope = trello().get(`/1/cards/${CARD}/attachments/${ATTACHMENT}`).reply(200, link)
        .get(`/1/cards/${CARD}/attachments/${ATTACHMENT}`).reply(404, "The requested resource was not found.", { "content-type": "text/plain" })
      expect(yield* run("getAttachment", { idCard: CARD, idAttachment: ATTACHMENT })).toEqual(decoded)
      const error = yield* Effect.flip(run("getAttachment", { idCard: CARD, idAttachment: ATTACHMENT }))
      expect([error._tag, error.message]).toEqual(["NotFound", "The requested resource was not found."])
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("deleteAttachment: DELETE /1/cards/{id}/attachments/{idAttachment}", () =>
    Effect.gen(function*() {
      const scope = trello().delete(`/1/cards/${CARD}/attachments/${ATTACHMENT}`).reply(200, { limits: {} })
      expect(yield* run("deleteAttachment", { idCard: CARD, idAttachment: ATTACHMENT })).toBeNull()
      expect(scope.isDone()).toBe(true)
    }))
})

describe("custom fields: the wire", () => {
  it.effect("listCustomFields: GET /1/boards/{id}/customFields, a list field with its options", () =>
    Effect.gen(function*() {
      const scope = trello().get(`/1/boards/${BOARD}/customFields`).reply(200, [priority, estimate])
      const output = yield* run("listCustomFields", { idBoard: BOARD })
      expect(output).toEqual({
        customFields: [decodedPriority, { ...decodedPriority, id: estimate.id, name: "Estimate", type: "number", options: [] }]
      })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("createCustomField: POST /1/customFields as JSON, a list's options as {value: {text}, color, pos}; options only for a list", () =>
    Effect.gen(function*() {
      const scope = trello().post("/1/customFields", {
        idModel: BOARD, modelType: "board", name: "Priority", type: "list", pos: "bottom", display_cardFront: true,
        options: [{ value: { text: "High" }, color: "none", pos: 16384 }, { value: { text: "Low" }, color: "none", pos: 32768 }]
      }).matchHeader("content-type", "application/json").reply(200, priority)
        .post("/1/customFields", { idModel: BOARD, modelType: "board", name: "Estimate", type: "number", pos: "bottom", display_cardFront: false })
        .reply(200, estimate)
      expect(yield* run("createCustomField", { idBoard: BOARD, name: "Priority", type: "list", options: ["High", "Low"] })).toEqual(decodedPriority)
      expect(yield* run("createCustomField", { idBoard: BOARD, name: "Estimate", type: "number", cardFront: false })).toMatchObject({ type: "number", options: [] })
      expect(scope.isDone()).toBe(true)
      for (const bad of [{ type: "list" }, { type: "text", options: ["x"] }, { type: "rating" }]) {
        expect((yield* Effect.flip(run("createCustomField", { idBoard: BOARD, name: "X", ...bad })))._tag).toBe("InvalidInput")
      }
    }))

  it.effect("deleteCustomField: DELETE /1/customFields/{id}", () =>
    Effect.gen(function*() {
      const scope = trello().delete(`/1/customFields/${FIELD}`).reply(200, {})
      expect(yield* run("deleteCustomField", { idCustomField: FIELD })).toBeNull()
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("getCardCustomFieldValues: GET /1/cards/{id}/customFieldItems, values as text and a list's idValue", () =>
    Effect.gen(function*() {
      const scope = trello().get(`/1/cards/${CARD}/customFieldItems`).reply(200, [
        { id: ITEM, idValue: OPTION, idCustomField: FIELD, idModel: CARD, modelType: "card" },
        { id: "61a0f0f0f0f0f0f0f0f0f0f5", value: { number: "3.5" }, idCustomField: estimate.id, idModel: CARD, modelType: "card" }
      ])
      expect(yield* run("getCardCustomFieldValues", { idCard: CARD })).toEqual({
        items: [
          { id: ITEM, idValue: OPTION, value: null, idCustomField: FIELD, idModel: CARD },
          { id: "61a0f0f0f0f0f0f0f0f0f0f5", idValue: null, value: { number: "3.5" }, idCustomField: estimate.id, idModel: CARD }
        ]
      })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("setCardCustomFieldValue: the board's fields loaded, the value typed by kind, PUT .../customField/{id}/item as Trello's JSON", () =>
    Effect.gen(function*() {
      const checkbox = { ...estimate, id: "61a0f0f0f0f0f0f0f0f0f0f6", name: "Reviewed", type: "checkbox" }
      const date = { ...estimate, id: "61a0f0f0f0f0f0f0f0f0f0f7", name: "Release", type: "date" }
      const text = { ...estimate, id: "61a0f0f0f0f0f0f0f0f0f0f8", name: "Notes", type: "text" }
      const item = (idCustomField: string, rest: object) => ({ id: ITEM, idCustomField, idModel: CARD, modelType: "card", ...rest })
      // Each run opens its own connection, so each loads the board's fields.
      const fieldsScope = trello().get(`/1/boards/${BOARD}/customFields`).times(9).reply(200, [priority, estimate, checkbox, date, text])
      const scope = trello()
        .put(`/1/cards/${CARD}/customField/${FIELD}/item`, { idValue: OPTION }).reply(200, item(FIELD, { idValue: OPTION }))
        .put(`/1/cards/${CARD}/customField/${estimate.id}/item`, { value: { number: "3.5" } }).reply(200, item(estimate.id, { value: { number: "3.5" } }))
        .put(`/1/cards/${CARD}/customField/${checkbox.id}/item`, { value: { checked: "true" } }).reply(200, item(checkbox.id, { value: { checked: "true" } }))
        .put(`/1/cards/${CARD}/customField/${date.id}/item`, { value: { date: "2026-12-01T09:00:00.000Z" } }).reply(200, item(date.id, { value: { date: "2026-12-01T09:00:00.000Z" } }))
        .put(`/1/cards/${CARD}/customField/${text.id}/item`, { value: { text: "Ship it" } }).reply(200, item(text.id, { value: { text: "Ship it" } }))
      const set = (idCustomField: string, value: object) => run("setCardCustomFieldValue", { idBoard: BOARD, idCard: CARD, idCustomField, value })
      expect(yield* set(FIELD, { idValue: OPTION })).toEqual({ id: ITEM, idCustomField: FIELD, idModel: CARD, idValue: OPTION, value: null })
      expect(yield* set(estimate.id, { number: 3.5 })).toMatchObject({ value: { number: "3.5" } })
      expect(yield* set(checkbox.id, { checked: true })).toMatchObject({ value: { checked: "true" } })
      expect(yield* set(date.id, { date: "2026-12-01T09:00:00.000Z" })).toMatchObject({ value: { date: "2026-12-01T09:00:00.000Z" } })
      expect(yield* set(text.id, { text: "Ship it" })).toMatchObject({ value: { text: "Ship it" } })
      expect(scope.isDone()).toBe(true)
      // Typed by the field's kind: a wrong key, a wrong type, an option that is not the field's, a field not on the board.
      const wrongKey = yield* Effect.flip(set(estimate.id, { text: "3" }))
      expect(wrongKey._tag === "InvalidInput" && wrongKey.issues.map((i) => i.path)).toContain("value.text")
      const notNumber = yield* Effect.flip(set(estimate.id, { number: "lots" }))
      expect(notNumber._tag === "InvalidInput" && notNumber.issues.map((i) => i.path)).toContain("value.number")
      expect((yield* Effect.flip(set(FIELD, { idValue: "61a0f0f0f0f0f0f0f0f0f099" })))._tag).toBe("InvalidInput")
      const elsewhere = yield* Effect.flip(set("61a0f0f0f0f0f0f0f0f0f098", { text: "x" }))
      expect(elsewhere.message).toContain("is not one of the board's")
      expect(fieldsScope.isDone()).toBe(true)
    }))
})
