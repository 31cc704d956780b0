/** Comments, checklists and labels on the wire: each action's request pinned, Trello's answer decoded. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import nock from "nock"
import { API, AUTHORIZATION, BOARD, CARD, run } from "./support.js"

const trello = () => nock(API, { reqheaders: { authorization: AUTHORIZATION, accept: "application/json" } })
const ACTION = "61a0f0f0f0f0f0f0f0f0a001"
const CHECKLIST = "61a0f0f0f0f0f0f0f0f0c111"
const ITEM = "61a0f0f0f0f0f0f0f0f0c1a1"
const LABEL = "61a0f0f0f0f0f0f0f0f01ab1"
const MEMBER = "5eed00000000000000000001"

/** A commentCard action as Trello answers it. */
const trelloComment = (id: string, text: string) => ({
  id,
  idMemberCreator: MEMBER,
  data: { text, textData: { emoji: {} }, card: { id: CARD, name: "Write the launch post", idShort: 7, shortLink: "AbCdEfGh" }, board: { id: BOARD, name: "Launch", shortLink: "AbCdEfGh" }, list: { id: "61a0f0f0f0f0f0f0f0f0f011", name: "To Do" } },
  appCreator: null,
  type: "commentCard",
  date: "2026-11-21T10:00:00.000Z",
  limits: { reactions: { perAction: { status: "ok", disableAt: 900, warnAt: 720 }, uniquePerAction: { status: "ok", disableAt: 17, warnAt: 14 } } },
  memberCreator: { id: MEMBER, username: "ada", fullName: "Ada Lovelace", initials: "AL" }
})
const comment = (id: string, text: string) => ({
  id, type: "commentCard", date: "2026-11-21T10:00:00.000Z", idMemberCreator: MEMBER, data: { text, card: { id: CARD, name: "Write the launch post" } }
})
const trelloItem = { id: ITEM, name: "Tag the build", nameData: { emoji: {} }, pos: 16384, state: "incomplete", due: null, dueReminder: null, idMember: null, idChecklist: CHECKLIST }
const item = { id: ITEM, idChecklist: CHECKLIST, name: "Tag the build", state: "incomplete", pos: 16384, due: null, idMember: null }
const trelloChecklist = {
  id: CHECKLIST, name: "Release", idBoard: BOARD, idCard: CARD, pos: 16384, checkItems: [trelloItem],
  limits: { checkItems: { perChecklist: { status: "ok", disableAt: 200, warnAt: 160 } } }
}
const checklist = { id: CHECKLIST, name: "Release", idBoard: BOARD, idCard: CARD, pos: 16384, checkItems: [item] }
const trelloLabel = { id: LABEL, idBoard: BOARD, name: "Urgent", color: "red", uses: 3 }
const label = { id: LABEL, idBoard: BOARD, name: "Urgent", color: "red" }

beforeAll(() => nock.disableNetConnect())
afterEach(() => nock.cleanAll())
afterAll(() => nock.enableNetConnect())

describe("comments: the wire", () => {
  it.effect("addComment: POST /1/cards/{id}/actions/comments, text in a form body; the comment decoded", () =>
    Effect.gen(function*() {
      const scope = trello().post(`/1/cards/${CARD}/actions/comments`, { text: "Ship it ✅" }).reply(200, trelloComment(ACTION, "Ship it ✅"))
      expect(yield* run("addComment", { idBoard: BOARD, idCard: CARD, text: "Ship it ✅" })).toEqual(comment(ACTION, "Ship it ✅"))
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("listComments: GET /1/cards/{id}/actions?filter=commentCard&page=0, 1, …: Trello's pages of 50, up to the limit", () =>
    Effect.gen(function*() {
      const id = (n: number) => `61a0f0f0f0f0f0f0f0${String(n).padStart(6, "0")}`
      const page = (from: number, count: number) => Array.from({ length: count }, (_, i) => trelloComment(id(from - i), `c${from - i}`))
      const scope = trello()
        .get(`/1/cards/${CARD}/actions`).query({ filter: "commentCard", page: 0 }).reply(200, page(70, 50))
        .get(`/1/cards/${CARD}/actions`).query({ filter: "commentCard", page: 1 }).reply(200, page(20, 20))
      const output = yield* run("listComments", { idCard: CARD, limit: 500 })
      expect(output.comments).toHaveLength(70)
      expect(output.comments[69]).toEqual(comment(id(1), "c1"))
      expect(scope.isDone()).toBe(true)
      // The limit stops the paging: 10 comments, one request.
      const one = trello().get(`/1/cards/${CARD}/actions`).query({ filter: "commentCard", page: 0 }).reply(200, page(70, 50))
      expect((yield* run("listComments", { idCard: CARD, limit: 10 })).comments).toHaveLength(10)
      expect(one.isDone()).toBe(true)
    }))

  it.effect("updateComment: PUT /1/cards/{id}/actions/{idAction}/comments with the text; deleteComment: DELETE there", () =>
    Effect.gen(function*() {
      const scope = trello()
        .put(`/1/cards/${CARD}/actions/${ACTION}/comments`, { text: "Shipped" }).reply(200, trelloComment(ACTION, "Shipped"))
        .delete(`/1/cards/${CARD}/actions/${ACTION}/comments`).reply(200, { _value: null })
      expect(yield* run("updateComment", { idCard: CARD, idAction: ACTION, text: "Shipped" })).toEqual(comment(ACTION, "Shipped"))
      expect(yield* run("deleteComment", { idCard: CARD, idAction: ACTION })).toBeNull()
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("addReaction: POST /1/actions/{idAction}/reactions with a JSON body: the short name, or the unified code", () =>
    Effect.gen(function*() {
      const reaction = {
        id: "61a0f0f0f0f0f0f0f0f0e001", idMember: MEMBER, idModel: ACTION, idEmoji: "1F44D",
        member: { id: MEMBER, username: "ada" },
        emoji: { unified: "1F44D", native: "👍", name: "THUMBS UP SIGN", skinVariation: null, shortName: "+1" }
      }
      const scope = trello()
        .post(`/1/actions/${ACTION}/reactions`, { shortName: "thumbsup" }).matchHeader("content-type", /application\/json/).reply(200, reaction)
        .post(`/1/actions/${ACTION}/reactions`, { unified: "1F44D" }).reply(200, reaction)
      const expected = { id: reaction.id, idMember: MEMBER, idModel: ACTION, emoji: { unified: "1F44D", native: "👍", name: "THUMBS UP SIGN", shortName: "+1" } }
      expect(yield* run("addReaction", { idAction: ACTION, shortName: "thumbsup" })).toEqual(expected)
      expect(yield* run("addReaction", { idAction: ACTION, unified: "1F44D" })).toEqual(expected)
      expect(scope.isDone()).toBe(true)
    }))
})

describe("checklists: the wire", () => {
  it.effect("createChecklist: POST /1/cards/{id}/checklists with name, idChecklistSource, pos; listCardChecklists: GET there", () =>
    Effect.gen(function*() {
      const SOURCE = "61a0f0f0f0f0f0f0f0f0c222"
      const scope = trello()
        .post(`/1/cards/${CARD}/checklists`, { name: "Release", idChecklistSource: SOURCE, pos: "top" }).reply(200, trelloChecklist)
        .post(`/1/cards/${CARD}/checklists`, { pos: "12.5" }).reply(200, trelloChecklist)
        .get(`/1/cards/${CARD}/checklists`).reply(200, [trelloChecklist])
      expect(yield* run("createChecklist", { idCard: CARD, name: "Release", idChecklistSource: SOURCE, pos: "top" })).toEqual(checklist)
      yield* run("createChecklist", { idCard: CARD, pos: "12.5" })
      expect(yield* run("listCardChecklists", { idCard: CARD })).toEqual({ checklists: [checklist] })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("updateChecklist: PUT /1/checklists/{id}; deleteChecklist: DELETE /1/checklists/{id}", () =>
    Effect.gen(function*() {
      const scope = trello()
        .put(`/1/checklists/${CHECKLIST}`, { name: "Release steps", pos: "bottom" }).reply(200, { ...trelloChecklist, name: "Release steps" })
        .delete(`/1/checklists/${CHECKLIST}`).reply(200, { limits: {} })
      expect(yield* run("updateChecklist", { id: CHECKLIST, name: "Release steps", pos: "bottom" })).toEqual({ ...checklist, name: "Release steps" })
      expect(yield* run("deleteChecklist", { id: CHECKLIST })).toBeNull()
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("addChecklistItem: POST /1/checklists/{id}/checkItems with name, pos, checked, due, idMember", () =>
    Effect.gen(function*() {
      const scope = trello()
        .post(`/1/checklists/${CHECKLIST}/checkItems`, { name: "Tag the build", pos: "bottom", checked: "true", due: "2026-12-01T10:00:00Z", idMember: MEMBER })
        .reply(200, { ...trelloItem, state: "complete", due: "2026-12-01T10:00:00.000Z", idMember: MEMBER })
      expect(yield* run("addChecklistItem", { idChecklist: CHECKLIST, name: "Tag the build", pos: "bottom", checked: true, due: "2026-12-01T10:00:00Z", idMember: MEMBER }))
        .toEqual({ ...item, state: "complete", due: "2026-12-01T10:00:00.000Z", idMember: MEMBER })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("updateChecklistItem: PUT /1/cards/{id}/checkItem/{idCheckItem} (the checklist is not sent); deleteChecklistItem: DELETE /1/checklists/{id}/checkItems/{id}", () =>
    Effect.gen(function*() {
      const scope = trello()
        .put(`/1/cards/${CARD}/checkItem/${ITEM}`, { state: "complete", name: "Tag it", pos: "top", due: "2026-12-02T10:00:00Z", idMember: MEMBER })
        .reply(200, { ...trelloItem, name: "Tag it", state: "complete", pos: 8192 })
        .delete(`/1/checklists/${CHECKLIST}/checkItems/${ITEM}`).reply(200, { limits: {} })
      expect(yield* run("updateChecklistItem", { idCard: CARD, idChecklist: CHECKLIST, idCheckItem: ITEM, state: "complete", name: "Tag it", pos: "top", due: "2026-12-02T10:00:00Z", idMember: MEMBER }))
        .toEqual({ ...item, name: "Tag it", state: "complete", pos: 8192 })
      expect(yield* run("deleteChecklistItem", { idCard: CARD, idChecklist: CHECKLIST, idCheckItem: ITEM })).toBeNull()
      expect(scope.isDone()).toBe(true)
    }))
})

describe("labels: the wire", () => {
  it.effect("listBoardLabels: GET /1/boards/{id}/labels?limit=1000 (a name Trello answers null becomes empty)", () =>
    Effect.gen(function*() {
      const scope = trello().get(`/1/boards/${BOARD}/labels`).query({ limit: 1000 })
        .reply(200, [trelloLabel, { id: "61a0f0f0f0f0f0f0f0f01ab2", idBoard: BOARD, name: null, color: "green", uses: 0 }])
      expect(yield* run("listBoardLabels", { idBoard: BOARD })).toEqual({
        labels: [label, { id: "61a0f0f0f0f0f0f0f0f01ab2", idBoard: BOARD, name: "", color: "green" }]
      })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("createLabel: POST /1/labels with idBoard, name, color (null without one); updateLabel: PUT /1/labels/{id}; deleteLabel: DELETE", () =>
    Effect.gen(function*() {
      const scope = trello()
        .post("/1/labels", { idBoard: BOARD, name: "Urgent", color: "red" }).reply(200, trelloLabel)
        .post("/1/labels", { idBoard: BOARD, name: "Plain", color: "null" }).reply(200, { ...trelloLabel, name: "Plain", color: null })
        .put(`/1/labels/${LABEL}`, { color: "null" }).reply(200, { ...trelloLabel, color: null })
        .put(`/1/labels/${LABEL}`, { name: "Hot" }).reply(200, { ...trelloLabel, name: "Hot" })
        .delete(`/1/labels/${LABEL}`).reply(200, {})
      expect(yield* run("createLabel", { idBoard: BOARD, name: "Urgent", color: "red" })).toEqual(label)
      expect(yield* run("createLabel", { idBoard: BOARD, name: "Plain" })).toEqual({ ...label, name: "Plain", color: null })
      expect(yield* run("updateLabel", { id: LABEL, color: "none" })).toEqual({ ...label, color: null })
      expect(yield* run("updateLabel", { id: LABEL, name: "Hot" })).toEqual({ ...label, name: "Hot" })
      expect(yield* run("deleteLabel", { id: LABEL })).toBeNull()
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("addLabelToCard by id: GET /1/labels/{id}, then POST /1/cards/{id}/idLabels value=<id>; removeLabelFromCard: DELETE /1/cards/{id}/idLabels/{id}", () =>
    Effect.gen(function*() {
      const scope = trello()
        .get(`/1/labels/${LABEL}`).reply(200, trelloLabel)
        .post(`/1/cards/${CARD}/idLabels`, { value: LABEL }).reply(200, [LABEL])
        .delete(`/1/cards/${CARD}/idLabels/${LABEL}`).reply(200, [])
      expect(yield* run("addLabelToCard", { idCard: CARD, idLabel: LABEL })).toEqual(label)
      expect(yield* run("removeLabelFromCard", { idCard: CARD, idLabel: LABEL })).toBeNull()
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("addLabelToCard by name: the card's board's label of that name and colour, else a new one", () =>
    Effect.gen(function*() {
      const NEW = "61a0f0f0f0f0f0f0f0f01ab9"
      const scope = trello()
        .get(`/1/cards/${CARD}`).query({ fields: "idBoard" }).times(2).reply(200, { id: CARD, idBoard: BOARD })
        .get(`/1/boards/${BOARD}/labels`).query({ limit: 1000 }).times(2).reply(200, [trelloLabel])
        .post(`/1/cards/${CARD}/idLabels`, { value: LABEL }).reply(200, [LABEL])
        .post("/1/labels", { idBoard: BOARD, name: "Urgent", color: "orange" }).reply(200, { ...trelloLabel, id: NEW, color: "orange" })
        .post(`/1/cards/${CARD}/idLabels`, { value: NEW }).reply(200, [LABEL, NEW])
      expect(yield* run("addLabelToCard", { idCard: CARD, name: "Urgent", color: "red" })).toEqual(label)
      expect(yield* run("addLabelToCard", { idCard: CARD, name: "Urgent", color: "orange" })).toEqual({ ...label, id: NEW, color: "orange" })
      expect(scope.isDone()).toBe(true)
    }))
})

describe("comments, checklists, labels: errors", () => {
  it.effect("bad input is refused before anything is sent", () =>
    Effect.gen(function*() {
      const sent: Array<string> = []
      nock(/.*/).persist().get(/.*/).reply(200, {}).post(/.*/).reply(200, {}).put(/.*/).reply(200, {})
        .on("request", (req: { method: string; path: string }) => sent.push(`${req.method} ${req.path}`))
      const message = (e: { message: string }) => e.message.replace(/^step "[^"]+" \([^)]+\): /, "")
      expect(message(yield* Effect.flip(run("addComment", { idCard: "42", text: "x" })))).toBe("idCard: must be a Trello id (24 hexadecimal digits)")
      expect(message(yield* Effect.flip(run("addComment", { idCard: CARD, text: "x".repeat(16385) })))).toBe("text: must be at most 16384 characters long")
      expect(message(yield* Effect.flip(run("addReaction", { idAction: ACTION, shortName: "x", unified: "1F44D" })))).toBe("shortName: give either a short name or a unified code")
      expect(message(yield* Effect.flip(run("createLabel", { idBoard: BOARD, name: "x", color: "mauve" })))).toContain("color:")
      expect(message(yield* Effect.flip(run("createChecklist", { idCard: CARD, pos: "middle" })))).toBe("pos: must be top, bottom or a positive number")
      expect(message(yield* Effect.flip(run("updateChecklistItem", { idCard: CARD, idCheckItem: ITEM, state: "done" })))).toContain("state:")
      expect(message(yield* Effect.flip(run("addLabelToCard", { idCard: CARD, idLabel: LABEL, name: "Urgent" })))).toBe("idLabel: give either a label or a label name")
      expect(message(yield* Effect.flip(run("updateLabel", { id: LABEL })))).toBe("name: give a name or a colour")
      expect(sent).toEqual([])
    }))

  it.effect("Trello's plain-text errors: an unknown label, a label already on the card, a member not on the board", () =>
    Effect.gen(function*() {
      trello().get(`/1/labels/${LABEL}`).reply(404, "The requested resource was not found.", { "content-type": "text/plain" })
      expect(yield* Effect.flip(run("addLabelToCard", { idCard: CARD, idLabel: LABEL }))).toMatchObject({ _tag: "NotFound" })
      trello().get(`/1/labels/${LABEL}`).reply(200, trelloLabel)
        .post(`/1/cards/${CARD}/idLabels`).reply(400, "that label is already on the card", { "content-type": "text/plain" })
      expect(yield* Effect.flip(run("addLabelToCard", { idCard: CARD, idLabel: LABEL }))).toMatchObject({ _tag: "InvalidInput", message: "that label is already on the card" })
      trello().post(`/1/checklists/${CHECKLIST}/checkItems`).reply(400, "invalid value for idMember", { "content-type": "text/plain" })
      expect(yield* Effect.flip(run("addChecklistItem", { idChecklist: CHECKLIST, name: "x", idMember: MEMBER }))).toMatchObject({
        _tag: "InvalidInput", message: "invalid value for idMember", request: { method: "POST", path: `/checklists/${CHECKLIST}/checkItems` }
      })
    }))
})
