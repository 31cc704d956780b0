import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import nock from "nock"
import { API, AUTHORIZATION, BOARD, CARD, LIST, run, trelloCard } from "./support.js"

const trello = () => nock(API, { reqheaders: { authorization: AUTHORIZATION, accept: "application/json" } })

const MEMBER = "61a0f0f0f0f0f0f0f0f0f0a1"
const LABEL = "61a0f0f0f0f0f0f0f0f0f0e1"
const OTHER_BOARD = "61a0f0f0f0f0f0f0f0f0f0b2"
const OTHER_LIST = "61a0f0f0f0f0f0f0f0f0f012"
const SOURCE = "61a0f0f0f0f0f0f0f0f0f0c2"

/** A card as Trello answers it, with dates, a member, a label. */
const full = {
  ...trelloCard,
  start: "2026-11-20T09:00:00.000Z",
  due: "2026-11-21T17:00:00.000Z",
  dueComplete: false,
  idMembers: [MEMBER],
  idLabels: [LABEL],
  labels: [{ id: LABEL, idBoard: BOARD, name: "Urgent", color: "red" }],
  idMembersVoted: [],
  cover: { idAttachment: null, color: null, size: "normal", brightness: "dark" }
}
const details = {
  id: CARD, name: full.name, desc: full.desc, idBoard: BOARD, idList: LIST, idShort: 7, pos: 16384, closed: false,
  start: full.start, due: full.due, dueComplete: false, idMembers: [MEMBER], idLabels: [LABEL],
  labels: [{ id: LABEL, name: "Urgent", color: "red" }], idMembersVoted: [], dateLastActivity: full.dateLastActivity,
  url: full.url, shortUrl: full.shortUrl
}
const action = {
  id: "61a0f0f0f0f0f0f0f0f0f0d1",
  idMemberCreator: MEMBER,
  type: "updateCard",
  date: "2026-11-21T10:00:00.000Z",
  data: { card: { id: CARD, idList: LIST }, old: { idList: OTHER_LIST }, listBefore: { id: OTHER_LIST, name: "Doing" }, listAfter: { id: LIST, name: "To Do" } },
  memberCreator: { id: MEMBER, username: "ada" }
}

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})
afterAll(() => nock.enableNetConnect())

describe("card actions: the wire", () => {
  it.effect("createCard: POST /1/cards, a form body with position, dates, ids comma-separated, a link and a source card", () =>
    Effect.gen(function*() {
      const scope = trello().post("/1/cards", {
        idList: LIST, name: "Launch", pos: "top", start: "2026-11-20T09:00:00Z", due: "2026-11-21T17:00:00Z", dueComplete: "false",
        idMembers: `${MEMBER},${MEMBER.replace("a1", "a2")}`, idLabels: LABEL, urlSource: "https://example.com/spec",
        idCardSource: SOURCE, keepFromSource: "due,labels"
      }).matchHeader("content-type", "application/x-www-form-urlencoded").reply(200, full)
      const output = yield* run("createCard", {
        idBoard: BOARD, idList: LIST, name: "Launch", pos: "top", start: "2026-11-20T09:00:00Z", due: "2026-11-21T17:00:00Z",
        dueComplete: false, idMembers: [MEMBER, MEMBER.replace("a1", "a2")], idLabels: [LABEL], urlSource: "https://example.com/spec",
        idCardSource: SOURCE, keepFromSource: ["due", "labels"]
      })
      expect(output).toEqual(details)
      // A numeric position is sent as the number.
      trello().post("/1/cards", `idList=${LIST}&pos=12.5`).reply(200, full)
      yield* run("createCard", { idList: LIST, pos: "12.5" })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("getCard: GET /1/cards/{id} with the nested resources asked for, decoded", () =>
    Effect.gen(function*() {
      const scope = trello().get(`/1/cards/${CARD}`).query({ attachments: "true", checklists: "all", customFieldItems: "true", members: "true" })
        .reply(200, {
          ...full,
          attachments: [{ id: "61a0f0f0f0f0f0f0f0f0f0f1", name: "spec", url: "https://example.com/spec", isUpload: false, date: "2026-11-21T10:00:00.000Z", bytes: null, mimeType: "" }],
          checklists: [{
            id: "61a0f0f0f0f0f0f0f0f0f0f2", name: "Steps", pos: 16384, idBoard: BOARD, idCard: CARD,
            checkItems: [{ id: "61a0f0f0f0f0f0f0f0f0f0f3", idChecklist: "61a0f0f0f0f0f0f0f0f0f0f2", name: "Draft", state: "complete", pos: 1, due: null, idMember: null, nameData: { emoji: {} } }]
          }],
          customFieldItems: [{ id: "61a0f0f0f0f0f0f0f0f0f0f4", idCustomField: "61a0f0f0f0f0f0f0f0f0f0f5", idModel: CARD, value: { number: "3" } }],
          members: [{ id: MEMBER, username: "ada", fullName: "Ada Lovelace", initials: "AL", avatarHash: null }]
        })
      const output = yield* run("getCard", { idBoard: BOARD, id: CARD, attachments: true, checklists: true, customFieldItems: true, members: true })
      expect(output).toMatchObject({
        ...details,
        attachments: [{ name: "spec", isUpload: false, bytes: null, fileName: null }],
        checklists: [{ name: "Steps", checkItems: [{ name: "Draft", state: "complete" }] }],
        customFieldItems: [{ idCustomField: "61a0f0f0f0f0f0f0f0f0f0f5", idValue: null, value: { number: "3" } }],
        members: [{ id: MEMBER, username: "ada", fullName: "Ada Lovelace" }]
      })
      // Nothing asked: no nested parameter sent, none in the output.
      trello().get(`/1/cards/${CARD}`).query({}).reply(200, full)
      const plain = yield* run("getCard", { id: CARD })
      expect(plain).toEqual(details)
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("updateCard: PUT /1/cards/{id} with a JSON body: changed fields only, null clears a date, ids comma-separated, the cover an object", () =>
    Effect.gen(function*() {
      const scope = trello().put(`/1/cards/${CARD}`, {
        name: "Renamed", due: null, idList: LIST, pos: 3, idMembers: "", idLabels: LABEL, closed: false,
        cover: { color: "red", size: "full" }
      }).matchHeader("content-type", /application\/json/).reply(200, { ...full, name: "Renamed" })
      const output = yield* run("updateCard", {
        idBoard: BOARD, id: CARD, name: "Renamed", removeDue: true, idList: LIST, pos: "3", idMembers: [], idLabels: [LABEL],
        closed: false, cover: { color: "red", size: "full" }
      })
      expect(output).toEqual({ ...details, name: "Renamed" })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("moveCard, archiveCard, unarchiveCard: PUT /1/cards/{id} with idBoard+idList+pos, closed=true, closed=false", () =>
    Effect.gen(function*() {
      const scope = trello()
        .put(`/1/cards/${CARD}`, { idBoard: OTHER_BOARD, idList: OTHER_LIST, pos: "bottom" }).reply(200, { ...full, idBoard: OTHER_BOARD, idList: OTHER_LIST })
        .put(`/1/cards/${CARD}`, { closed: true }).reply(200, { ...full, closed: true })
        .put(`/1/cards/${CARD}`, { closed: false }).reply(200, full)
      expect(yield* run("moveCard", { idBoard: BOARD, id: CARD, toBoard: OTHER_BOARD, toList: OTHER_LIST, pos: "bottom" }))
        .toMatchObject({ idBoard: OTHER_BOARD, idList: OTHER_LIST })
      expect(yield* run("archiveCard", { id: CARD })).toMatchObject({ id: CARD, closed: true })
      expect(yield* run("unarchiveCard", { id: CARD })).toMatchObject({ id: CARD, closed: false })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("copyCard: POST /1/cards with idCardSource and keepFromSource (all by default); deleteCard: DELETE /1/cards/{id}", () =>
    Effect.gen(function*() {
      const scope = trello()
        .post("/1/cards", { idList: OTHER_LIST, idCardSource: CARD, keepFromSource: "all" }).reply(200, { ...full, id: SOURCE, idList: OTHER_LIST })
        .post("/1/cards", { idList: OTHER_LIST, idCardSource: CARD, keepFromSource: "checklists,members", name: "Copy", pos: "top" }).reply(200, full)
        .delete(`/1/cards/${CARD}`).reply(200, { limits: {} })
      expect(yield* run("copyCard", { id: CARD, toBoard: OTHER_BOARD, toList: OTHER_LIST })).toMatchObject({ id: SOURCE, idList: OTHER_LIST })
      yield* run("copyCard", { id: CARD, toBoard: OTHER_BOARD, toList: OTHER_LIST, name: "Copy", pos: "top", keep: ["checklists", "members"] })
      expect(yield* run("deleteCard", { id: CARD })).toEqual({ id: CARD, deleted: true })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("listListCards and listBoardCards: GET /1/lists/{id}/cards and /1/boards/{id}/cards/{filter}, capped by the limit", () =>
    Effect.gen(function*() {
      const scope = trello()
        .get(`/1/lists/${LIST}/cards`).reply(200, [full, { ...full, id: SOURCE }])
        .get(`/1/boards/${BOARD}/cards/closed`).reply(200, [{ ...full, closed: true }])
        .get(`/1/boards/${BOARD}/cards/open`).reply(200, [full])
      expect(yield* run("listListCards", { idList: LIST, limit: 1 })).toEqual({ cards: [details] })
      expect(yield* run("listBoardCards", { idBoard: BOARD, filter: "closed" })).toEqual({ cards: [{ ...details, closed: true }] })
      expect(yield* run("listBoardCards", { idBoard: BOARD })).toEqual({ cards: [details] })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("listCardActivity: GET /1/cards/{id}/actions?filter&page, page 0, 1, … until a short page or the limit", () =>
    Effect.gen(function*() {
      const page = (n: number, size: number) => Array.from({ length: size }, (_, i) => ({ ...action, id: `61a0f0f0f0f0f0f0f0f${String(n * 100 + i).padStart(5, "0")}` }))
      const scope = trello()
        .get(`/1/cards/${CARD}/actions`).query({ filter: "updateCard:idList", page: "0" }).reply(200, page(0, 50))
        .get(`/1/cards/${CARD}/actions`).query({ filter: "updateCard:idList", page: "1" }).reply(200, page(1, 7))
      const output = (yield* run("listCardActivity", { id: CARD, filter: "updateCard:idList", limit: 500 })) as { actions: Array<{ id: string; data: unknown }> }
      expect(output.actions).toHaveLength(57)
      expect(output.actions[0]).toEqual({ id: page(0, 1)[0]!.id, type: "updateCard", date: action.date, idMemberCreator: MEMBER, data: action.data })
      // A limit within the first page asks for no second one; the default filter is all.
      trello().get(`/1/cards/${CARD}/actions`).query({ filter: "all", page: "0" }).reply(200, page(0, 50))
      expect(((yield* run("listCardActivity", { id: CARD, limit: 20 })) as { actions: Array<unknown> }).actions).toHaveLength(20)
      expect(scope.isDone()).toBe(true)
    }))
})

describe("vote actions: the wire", () => {
  it.effect("voteOnCard: POST /1/cards/{id}/membersVoted value=…; removeVote: DELETE …/membersVoted/{idMember}; listVoters: GET …/membersVoted", () =>
    Effect.gen(function*() {
      const scope = trello()
        .post(`/1/cards/${CARD}/membersVoted`, `value=${MEMBER}`).reply(200, [{ id: MEMBER, username: "ada", fullName: "Ada Lovelace" }])
        .get(`/1/cards/${CARD}/membersVoted`).query({ fields: "username,fullName" }).reply(200, [{ id: MEMBER, username: "ada", fullName: "Ada Lovelace" }])
        .delete(`/1/cards/${CARD}/membersVoted/${MEMBER}`).reply(200, {})
      expect(yield* run("voteOnCard", { idCard: CARD, idMember: MEMBER })).toEqual({ idCard: CARD, idMember: MEMBER, voted: true })
      expect(yield* run("listVoters", { idCard: CARD })).toEqual({ voters: [{ id: MEMBER, username: "ada", fullName: "Ada Lovelace" }] })
      expect(yield* run("removeVote", { idCard: CARD, idMember: MEMBER })).toEqual({ idCard: CARD, idMember: MEMBER, voted: false })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("Trello's refusals keep their text: a second vote, a label of another board", () =>
    Effect.gen(function*() {
      trello().post(`/1/cards/${CARD}/membersVoted`).reply(400, "member has already voted on the card", { "content-type": "text/plain" })
      expect(yield* Effect.flip(run("voteOnCard", { idCard: CARD, idMember: MEMBER })))
        .toMatchObject({ _tag: "InvalidInput", message: "member has already voted on the card" })
      trello().put(`/1/cards/${CARD}`).reply(400, "invalid value for idLabels", { "content-type": "text/plain" })
      expect(yield* Effect.flip(run("updateCard", { id: CARD, idLabels: [LABEL] })))
        .toMatchObject({ _tag: "InvalidInput", message: "invalid value for idLabels" })
    }))
})

describe("card actions: bad input is refused before anything is sent", () => {
  it.effect("positions, link schemes, keepFromSource without a source, contradictory dates and covers, unknown filters", () =>
    Effect.gen(function*() {
      const sent: Array<string> = []
      nock(/.*/).persist().get(/.*/).reply(200, {}).post(/.*/).reply(200, {}).put(/.*/).reply(200, {})
        .on("request", (req: { method: string; path: string }) => sent.push(`${req.method} ${req.path}`))
      const message = (action: string, params: Record<string, unknown>) => Effect.map(Effect.flip(run(action, params)), (e) => e.message)
      expect(yield* message("createCard", { idList: LIST, pos: "middle" })).toContain("pos: must be top, bottom or a positive number")
      expect(yield* message("createCard", { idList: LIST, urlSource: "ftp://x" })).toContain("urlSource: must start with http:// or https://")
      expect(yield* message("createCard", { idList: LIST, keepFromSource: ["due"] })).toContain("keepFromSource: applies only to a copy")
      expect(yield* message("createCard", { idList: LIST, idLabels: ["red"] })).toContain("idLabels[0]: must be a Trello id")
      expect(yield* message("updateCard", { id: CARD, due: "2026-01-01T00:00:00Z", removeDue: true })).toContain("removeDue: give a due date or remove it")
      expect(yield* message("updateCard", { id: CARD, cover: { color: "red", idAttachment: CARD } })).toContain("cover: a cover is a colour or an attachment")
      expect(yield* message("updateCard", { id: CARD, cover: { color: "mauve" } })).toContain("cover.color")
      expect(yield* message("listBoardCards", { idBoard: BOARD, filter: "archived" })).toContain("filter")
      expect(yield* message("moveCard", { id: CARD, toList: LIST })).toContain("toBoard")
      expect(sent).toEqual([])
    }))
})
