/**
 * Notifications (list, mark read, mark all read, the newNotification polling trigger) and a list
 * field's options (list, add): each wire request pinned with nock, Trello's answers decoded, bad
 * inputs refused before anything is sent.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import { Component } from "@x/core"
import * as Effect from "effect/Effect"
import nock from "nock"
import { boardtool } from "../src/index.js"
import { API, AUTHORIZATION, BOARD, CARD, executor, run, withFetch } from "./support.js"

const trello = () => nock(API, { reqheaders: { authorization: AUTHORIZATION } })
const MEMBER = "61a0f0f0f0f0f0f0f0f0f0d1"
const FIELD = "61a0f0f0f0f0f0f0f0f0f0f1"
const OPTION = "61a0f0f0f0f0f0f0f0f0f0f2"
// Ids that grow with time, as Trello's ObjectIds do.
const id = (n: number) => `61a0f0f0f0f0f0f0f0${String(n).padStart(6, "0")}`

/** A notification as Trello answers it (abridged). */
const trelloNotification = (n: number, type = "mentionedOnCard", board = BOARD) => ({
  id: id(n),
  unread: true,
  type,
  date: "2026-11-21T10:00:00.000Z",
  dateRead: null,
  data: { text: "@me have a look", card: { id: CARD, name: "Launch", idShort: 7, shortLink: "AbCdEfGh" }, board: { id: board, name: "Launch", shortLink: "BoArDsHo" } },
  appCreator: null,
  idMemberCreator: MEMBER,
  idAction: id(n + 500_000),
  reactions: [],
  memberCreator: { id: MEMBER, avatarHash: null, fullName: "Alice Martin", initials: "AM", username: "alice" }
})
const decoded = (n: number, type = "mentionedOnCard", board = BOARD) => {
  const { appCreator: _a, reactions: _r, memberCreator, ...rest } = trelloNotification(n, type, board)
  return { ...rest, memberCreator: { id: memberCreator.id, username: memberCreator.username, fullName: memberCreator.fullName } }
}
const trigger = (parameters: Record<string, unknown> = {}) => ({
  label: "Mentioned", name: "mentioned", type: "boardtool/v1/newNotification", parameters
})
const mentionedOrAssigned = "mentionedOnCard,addedToCard"

beforeAll(() => nock.disableNetConnect())
afterEach(() => nock.cleanAll())
afterAll(() => nock.enableNetConnect())

describe("notifications: the wire", () => {
  it.effect("listNotifications: GET /1/members/me/notifications with filter, read_filter and limit; the next page before the last id", () =>
    Effect.gen(function*() {
      const page = (from: number, count: number) => Array.from({ length: count }, (_, i) => trelloNotification(from - i))
      const scope = trello()
        .get("/1/members/me/notifications").query({ filter: "mentionedOnCard,commentCard", read_filter: "unread", limit: 1000 }).reply(200, page(2000, 1000))
        .get("/1/members/me/notifications").query({ filter: "mentionedOnCard,commentCard", read_filter: "unread", limit: 200, before: id(1001) })
        .reply(200, page(1000, 200))
        .get("/1/members/me/notifications").query({ limit: 50 }).reply(200, [trelloNotification(3)])
      const many = (yield* run("listNotifications", { types: ["mentionedOnCard", "commentCard"], onlyUnread: true, limit: 1200 })) as {
        notifications: Array<{ id: string }>
      }
      expect(many.notifications).toHaveLength(1200)
      expect(many.notifications.at(-1)!.id).toBe(id(801))
      expect(yield* run("listNotifications", {})).toEqual({ notifications: [decoded(3)] })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("listNotifications: an unknown type, an empty list of types and a limit over 5000 are refused, nothing sent", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(run("listNotifications", { types: ["mentionedOnCard", "poked"], limit: 5001 }))
      expect(error._tag === "InvalidInput" && error.issues.map((i) => i.path)).toEqual(["types[1]", "limit"])
      expect((yield* Effect.flip(run("listNotifications", { types: [] })))._tag).toBe("InvalidInput")
    }))

  it.effect("markNotificationRead: PUT /1/notifications/{id}?unread=false (or true to mark it unread again); a malformed id is refused", () =>
    Effect.gen(function*() {
      const scope = trello()
        .put(`/1/notifications/${id(1)}`).query({ unread: "false" }).reply(200, { ...trelloNotification(1), unread: false, dateRead: "2026-11-21T11:00:00.000Z" })
        .put(`/1/notifications/${id(1)}`).query({ unread: "true" }).reply(200, trelloNotification(1))
        .put(`/1/notifications/${id(2)}`).query({ unread: "false" }).reply(401, "unauthorized permission requested", { "content-type": "text/plain" })
      expect(yield* run("markNotificationRead", { idNotification: id(1) })).toEqual({ ...decoded(1), unread: false, dateRead: "2026-11-21T11:00:00.000Z" })
      expect(yield* run("markNotificationRead", { idNotification: id(1), read: false })).toMatchObject({ unread: true, dateRead: null })
      const denied = yield* Effect.flip(run("markNotificationRead", { idNotification: id(2) }))
      expect([denied._tag, denied.message]).toEqual(["PermissionDenied", "unauthorized permission requested"])
      expect(scope.isDone()).toBe(true)
      expect((yield* Effect.flip(run("markNotificationRead", { idNotification: "../all/read" })))._tag).toBe("InvalidInput")
    }))

  it.effect("markAllNotificationsRead: POST /1/notifications/all/read, nothing else", () =>
    Effect.gen(function*() {
      const scope = trello().post("/1/notifications/all/read").query({}).reply(200, {})
      expect(yield* run("markAllNotificationsRead", {})).toBeNull()
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("markNotificationRead's options: the latest unread notifications, as type: card", () =>
    Effect.gen(function*() {
      const scope = trello().get("/1/members/me/notifications").query({ read_filter: "unread", limit: 50 })
        .reply(200, [trelloNotification(2, "addedToCard"), { ...trelloNotification(1, "addedToBoard"), data: { board: { id: BOARD, name: "Launch" } } }])
      expect(yield* withFetch(executor.options("boardtool/v1/markNotificationRead", "idNotification", {}))).toEqual([
        { label: "addedToCard: Launch", value: id(2) },
        { label: "addedToBoard: Launch", value: id(1) }
      ])
      expect(scope.isDone()).toBe(true)
    }))
})

describe("newNotification (polling)", () => {
  it.effect("the baseline reads the newest one and fires nothing; later polls ask since it, fire each new one once, oldest first", () =>
    Effect.gen(function*() {
      const scope = trello()
        .get("/1/members/me/notifications").query({ filter: mentionedOrAssigned, limit: 1 }).reply(200, [trelloNotification(10)])
        .get("/1/members/me/notifications").query({ filter: mentionedOrAssigned, since: id(10), limit: 1000 })
        .reply(200, [trelloNotification(12, "addedToCard"), trelloNotification(11)])
        // A provider that answers `since` inclusively, or again: what was seen is not an event twice.
        .get("/1/members/me/notifications").query({ filter: mentionedOrAssigned, since: id(12), limit: 1000 })
        .reply(200, [trelloNotification(12, "addedToCard")])
        .get("/1/members/me/notifications").query({ filter: mentionedOrAssigned, since: id(12), limit: 1000 }).reply(200, [])
      const baseline = yield* withFetch(executor.poll(trigger(), undefined))
      expect(baseline).toEqual({ events: [], cursor: { newest: id(10), seen: [id(10)] } })
      const next = yield* withFetch(executor.poll(trigger(), baseline.cursor))
      expect(next.events).toEqual([{ id: id(11), output: decoded(11) }, { id: id(12), output: decoded(12, "addedToCard") }])
      expect(next.cursor).toEqual({ newest: id(12), seen: [id(12), id(11)] })
      const again = yield* withFetch(executor.poll(trigger(), next.cursor))
      expect(again.events).toEqual([])
      // Nothing new: the cursor stays.
      expect((yield* withFetch(executor.poll(trigger(), again.cursor))).cursor).toEqual({ newest: id(12), seen: [id(12)] })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("the chosen types and read state are sent; a board keeps only its notifications; no notification yet reads from the start", () =>
    Effect.gen(function*() {
      const OTHER = "61a0f0f0f0f0f0f0f0f0f0b2"
      const params = { types: ["commentCard"], onlyUnread: true, idBoard: BOARD }
      const scope = trello()
        .get("/1/members/me/notifications").query({ filter: "commentCard", read_filter: "unread", limit: 1 }).reply(200, [])
        .get("/1/members/me/notifications").query({ filter: "commentCard", read_filter: "unread", limit: 1000 })
        .reply(200, [trelloNotification(2, "commentCard", OTHER), trelloNotification(1, "commentCard")])
      const baseline = yield* withFetch(executor.poll(trigger(params), undefined))
      expect(baseline.cursor).toEqual({ newest: null, seen: [] })
      const next = yield* withFetch(executor.poll(trigger(params), baseline.cursor))
      expect(next.events.map((e) => e.id)).toEqual([id(1)])
      expect(next.cursor).toEqual({ newest: id(2), seen: [id(2), id(1)] })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("sample: the latest of the chosen types, at most 5; bad parameters are refused before anything is sent", () =>
    Effect.gen(function*() {
      const scope = trello().get("/1/members/me/notifications").query({ filter: mentionedOrAssigned, limit: 50 })
        .reply(200, Array.from({ length: 7 }, (_, i) => trelloNotification(20 - i)))
      expect((yield* withFetch(executor.sample(trigger()))).map((e) => e.id)).toEqual([20, 19, 18, 17, 16].map(id))
      expect(scope.isDone()).toBe(true)
      const bad = yield* Effect.flip(withFetch(executor.poll(trigger({ types: ["liked"], idBoard: "board" }), undefined)))
      expect(bad._tag === "InvalidInput" && bad.issues.map((i) => i.path)).toEqual(["types[0]", "idBoard"])
    }))

  it("describe: polled every minute, with sample data; mentions and assignments by default", () => {
    const described = Component.describe(boardtool).triggers.find((t) => t.name === "newNotification")
    expect(described).toMatchObject({ kind: "POLLING", intervalMillis: 60_000, sample: true })
    expect(described!.props["types"]).toMatchObject({ kind: "ARRAY", defaultValue: ["mentionedOnCard", "addedToCard"] })
  })
})

describe("a list field's options: the wire", () => {
  const option = { id: OPTION, idCustomField: FIELD, value: { text: "Urgent" }, color: "purple", pos: 16384 }
  const field = (type: string) => ({
    id: FIELD, idModel: BOARD, modelType: "board", name: type === "list" ? "Priority" : "Estimate", pos: 16384, type,
    display: { cardFront: true }, ...(type === "list" ? { options: [option] } : {})
  })

  it.effect("listCustomFieldOptions: GET /1/customFields/{id}/options", () =>
    Effect.gen(function*() {
      const scope = trello().get(`/1/customFields/${FIELD}/options`).reply(200, [option])
      expect(yield* run("listCustomFieldOptions", { idBoard: BOARD, idCustomField: FIELD })).toEqual({ options: [option] })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("addCustomFieldOption: the field read (GET /1/customFields/{id}), then POST …/options as JSON {value: {text}, color, pos}", () =>
    Effect.gen(function*() {
      const scope = trello()
        .get(`/1/customFields/${FIELD}`).twice().reply(200, field("list"))
        .post(`/1/customFields/${FIELD}/options`, { value: { text: "Urgent" }, color: "purple", pos: "top" })
        .matchHeader("content-type", "application/json").reply(200, option)
        .post(`/1/customFields/${FIELD}/options`, { value: { text: "Later" }, color: "none", pos: "bottom" })
        .reply(200, { ...option, value: { text: "Later" }, color: "none", pos: 32768 })
      expect(yield* run("addCustomFieldOption", { idBoard: BOARD, idCustomField: FIELD, text: "Urgent", color: "purple", pos: "top" })).toEqual(option)
      expect(yield* run("addCustomFieldOption", { idCustomField: FIELD, text: "Later" })).toMatchObject({ value: { text: "Later" }, color: "none", pos: 32768 })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("addCustomFieldOption: a field of another kind is refused after the read, nothing written; a bad colour or empty text before any request", () =>
    Effect.gen(function*() {
      const scope = trello().get(`/1/customFields/${FIELD}`).reply(200, field("number"))
      const notList = yield* Effect.flip(run("addCustomFieldOption", { idCustomField: FIELD, text: "Urgent" }))
      expect([notList._tag, notList.message]).toEqual(["InvalidInput", "\"Estimate\" is a number field: only a list (dropdown) field has options"])
      expect(scope.isDone()).toBe(true)
      const bad = yield* Effect.flip(run("addCustomFieldOption", { idCustomField: FIELD, text: "", color: "teal", pos: "middle" }))
      expect(bad._tag === "InvalidInput" && bad.issues.map((i) => i.path)).toEqual(["text", "color", "pos"])
    }))

  it.effect("the field options: a board's list fields only", () =>
    Effect.gen(function*() {
      const scope = trello().get(`/1/boards/${BOARD}/customFields`).reply(200, [field("list"), { ...field("number"), id: "61a0f0f0f0f0f0f0f0f0f0f4" }])
      expect(yield* withFetch(executor.options("boardtool/v1/addCustomFieldOption", "idCustomField", { idBoard: BOARD }))).toEqual([
        { label: "Priority (list)", value: FIELD }
      ])
      expect(scope.isDone()).toBe(true)
    }))
})
