/**
 * Lists, boards, search and workspaces on the wire (nock): each action's request (method, path,
 * query or form body) and a realistic Trello response decoded into its output.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import { Component } from "@x/core"
import * as Effect from "effect/Effect"
import nock from "nock"
import { boardtool } from "../src/index.js"
import { API, AUTHORIZATION, BOARD, CARD, card, executor, LIST, run, trelloBoard, trelloCard, withFetch } from "./support.js"

const trello = () => nock(API, { reqheaders: { authorization: AUTHORIZATION, accept: "application/json" } })
const options = (type: string, property: string, params: Record<string, unknown>) =>
  withFetch(executor.options(`boardtool/v1/${type}`, property, params))

const OTHER_BOARD = "61a0f0f0f0f0f0f0f0f0f0b2"
const OTHER_LIST = "61a0f0f0f0f0f0f0f0f0f012"
const WORKSPACE = "61a0f0f0f0f0f0f0f0f0f000"

/** A list as Trello answers it. */
const trelloList = { id: LIST, name: "To Do", closed: false, idBoard: BOARD, pos: 16384, subscribed: false, softLimit: null, status: null }
const list = { id: LIST, name: "To Do", closed: false, idBoard: BOARD, pos: 16384 }
const board = {
  id: BOARD,
  name: trelloBoard.name,
  desc: trelloBoard.desc,
  closed: false,
  idOrganization: trelloBoard.idOrganization,
  url: trelloBoard.url,
  shortUrl: trelloBoard.shortUrl,
  prefs: { permissionLevel: "private" }
}

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})
afterAll(() => nock.enableNetConnect())

describe("lists on the wire", () => {
  it.effect("createList: POST /1/lists with idBoard, name, pos, idListSource in a form body; the List decoded", () =>
    Effect.gen(function*() {
      const scope = trello()
        .post("/1/lists", { idBoard: BOARD, name: "To Do", pos: "top", idListSource: OTHER_LIST }).reply(200, trelloList)
        .post("/1/lists", { idBoard: BOARD, name: "Later" }).reply(200, { ...trelloList, name: "Later", pos: 32768 })
      expect(yield* run("createList", { idBoard: BOARD, name: "To Do", pos: "top", idListSource: OTHER_LIST })).toEqual(list)
      expect(yield* run("createList", { idBoard: BOARD, name: "Later" })).toEqual({ ...list, name: "Later", pos: 32768 })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("getList: GET /1/lists/{id}", () =>
    Effect.gen(function*() {
      const scope = trello().get(`/1/lists/${LIST}`).reply(200, trelloList)
      expect(yield* run("getList", { idBoard: BOARD, idList: LIST })).toEqual(list)
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("updateList, archiveList, unarchiveList, moveListToBoard: PUT /1/lists/{id} with only the changes (idBoard of the step not sent)", () =>
    Effect.gen(function*() {
      const scope = trello()
        .put(`/1/lists/${LIST}`, { name: "Backlog", pos: "12.5" }).reply(200, { ...trelloList, name: "Backlog", pos: 12.5 })
        .put(`/1/lists/${LIST}`, { closed: "true" }).reply(200, { ...trelloList, closed: true })
        .put(`/1/lists/${LIST}`, { closed: "false" }).reply(200, trelloList)
        .put(`/1/lists/${LIST}`, { idBoard: OTHER_BOARD, pos: "bottom" }).reply(200, { ...trelloList, idBoard: OTHER_BOARD })
        .put(`/1/lists/${LIST}`, { idBoard: OTHER_BOARD, pos: "top" }).reply(200, { ...trelloList, idBoard: OTHER_BOARD, pos: 8192 })
      expect(yield* run("updateList", { idBoard: BOARD, idList: LIST, name: "Backlog", pos: "12.5" })).toEqual({ ...list, name: "Backlog", pos: 12.5 })
      expect(yield* run("archiveList", { idList: LIST })).toEqual({ ...list, closed: true })
      expect(yield* run("unarchiveList", { idList: LIST })).toEqual(list)
      expect(yield* run("moveListToBoard", { idList: LIST, toBoard: OTHER_BOARD })).toEqual({ ...list, idBoard: OTHER_BOARD })
      expect(yield* run("moveListToBoard", { idList: LIST, toBoard: OTHER_BOARD, pos: "top" })).toMatchObject({ pos: 8192 })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("listBoardLists: GET /1/boards/{id}/lists?filter=open by default, closed or all when asked", () =>
    Effect.gen(function*() {
      const archived = { ...trelloList, id: OTHER_LIST, name: "Old", closed: true }
      const scope = trello()
        .get(`/1/boards/${BOARD}/lists`).query({ filter: "open" }).reply(200, [trelloList])
        .get(`/1/boards/${BOARD}/lists`).query({ filter: "all" }).reply(200, [trelloList, archived])
      expect(yield* run("listBoardLists", { idBoard: BOARD })).toEqual({ lists: [list] })
      expect(yield* run("listBoardLists", { idBoard: BOARD, filter: "all" })).toEqual({
        lists: [list, { ...list, id: OTHER_LIST, name: "Old", closed: true }]
      })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("findListByName: reads the board's lists, matches the name ignoring case and spaces, open first; found false when none", () =>
    Effect.gen(function*() {
      const archived = { ...trelloList, id: OTHER_LIST, closed: true }
      const scope = trello()
        .get(`/1/boards/${BOARD}/lists`).query({ filter: "all" }).reply(200, [archived, trelloList])
        .get(`/1/boards/${BOARD}/lists`).query({ filter: "open" }).reply(200, [trelloList])
      expect(yield* run("findListByName", { idBoard: BOARD, name: "  to do ", includeArchived: true })).toEqual({ found: true, list })
      expect(yield* run("findListByName", { idBoard: BOARD, name: "Done" })).toEqual({ found: false, list: null })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("moveAllCards: POST /1/lists/{id}/moveAllCards with the target idBoard and idList; the moved cards decoded", () =>
    Effect.gen(function*() {
      const scope = trello()
        .post(`/1/lists/${LIST}/moveAllCards`, { idBoard: OTHER_BOARD, idList: OTHER_LIST })
        .reply(200, [{ ...trelloCard, idBoard: OTHER_BOARD, idList: OTHER_LIST }])
      expect(yield* run("moveAllCards", { idBoard: BOARD, idList: LIST, toBoard: OTHER_BOARD, toList: OTHER_LIST })).toEqual({
        moved: 1,
        cards: [{ ...card, idBoard: OTHER_BOARD, idList: OTHER_LIST }]
      })
      expect(scope.isDone()).toBe(true)
    }))
})

describe("boards on the wire", () => {
  it.effect("createBoard: POST /1/boards with the options in a form body (prefs_permissionLevel, keepFromSource from keepCards); the Board decoded", () =>
    Effect.gen(function*() {
      const scope = trello()
        .post("/1/boards", {
          name: "Launch",
          desc: "Q4 launch",
          defaultLists: "false",
          defaultLabels: "true",
          idOrganization: WORKSPACE,
          prefs_permissionLevel: "private"
        }).reply(200, trelloBoard)
        .post("/1/boards", { name: "Launch copy", idBoardSource: OTHER_BOARD, keepFromSource: "cards" }).reply(200, trelloBoard)
      expect(yield* run("createBoard", {
        name: "Launch", desc: "Q4 launch", defaultLists: false, defaultLabels: true, idOrganization: WORKSPACE, permissionLevel: "private"
      })).toEqual(board)
      yield* run("createBoard", { name: "Launch copy", idBoardSource: OTHER_BOARD, keepCards: true })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("getBoard, updateBoard, closeBoard, reopenBoard, deleteBoard: GET, PUT (prefs/permissionLevel) and DELETE /1/boards/{id}", () =>
    Effect.gen(function*() {
      const scope = trello()
        .get(`/1/boards/${BOARD}`).reply(200, trelloBoard)
        .put(`/1/boards/${BOARD}`, { name: "Renamed", "prefs/permissionLevel": "org", idOrganization: WORKSPACE })
        .reply(200, { ...trelloBoard, name: "Renamed", prefs: { ...trelloBoard.prefs, permissionLevel: "org" } })
        .put(`/1/boards/${BOARD}`, { closed: "true" }).reply(200, { ...trelloBoard, closed: true })
        .put(`/1/boards/${BOARD}`, { closed: "false" }).reply(200, trelloBoard)
        .delete(`/1/boards/${BOARD}`).reply(200, { _value: null })
      expect(yield* run("getBoard", { idBoard: BOARD })).toEqual(board)
      expect(yield* run("updateBoard", { idBoard: BOARD, name: "Renamed", permissionLevel: "org", idOrganization: WORKSPACE })).toEqual({
        ...board, name: "Renamed", prefs: { permissionLevel: "org" }
      })
      expect(yield* run("closeBoard", { idBoard: BOARD })).toEqual({ ...board, closed: true })
      expect(yield* run("reopenBoard", { idBoard: BOARD })).toEqual(board)
      expect(yield* run("deleteBoard", { idBoard: BOARD })).toBeNull()
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("listMyBoards and listWorkspaceBoards: GET /1/members/me/boards and /1/organizations/{id}/boards with filter", () =>
    Effect.gen(function*() {
      const scope = trello()
        .get("/1/members/me/boards").query({ filter: "open" }).reply(200, [trelloBoard])
        .get("/1/members/me/boards").query({ filter: "closed" }).reply(200, [])
        .get(`/1/organizations/${WORKSPACE}/boards`).query({ filter: "all" }).reply(200, [trelloBoard, { ...trelloBoard, closed: true }])
      expect(yield* run("listMyBoards", {})).toEqual({ boards: [board] })
      expect(yield* run("listMyBoards", { filter: "closed" })).toEqual({ boards: [] })
      expect(yield* run("listWorkspaceBoards", { idOrganization: WORKSPACE, filter: "all" })).toEqual({ boards: [board, { ...board, closed: true }] })
      expect(scope.isDone()).toBe(true)
    }))
})

describe("search on the wire", () => {
  it.effect("searchBoards: GET /1/search with modelTypes=boards, every board field, boards_limit", () =>
    Effect.gen(function*() {
      const scope = trello()
        .get("/1/search")
        .query({ query: "launch", modelTypes: "boards", idOrganizations: WORKSPACE, partial: "true", board_fields: "all", boards_limit: "5" })
        .reply(200, { options: { terms: [{ text: "launch" }] }, boards: [trelloBoard] })
      expect(yield* run("searchBoards", { query: "launch", idOrganization: WORKSPACE, partial: true, limit: 5 })).toEqual({ boards: [board] })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("searchCards: GET /1/search with modelTypes=cards, idBoards, cards_limit and cards_page (from 0), pages until the limit", () =>
    Effect.gen(function*() {
      const found = { ...card, closed: false, due: null, url: trelloCard.url }
      const scope = trello()
        .get("/1/search").query({ query: "launch post", modelTypes: "cards", idBoards: BOARD, cards_limit: "3", cards_page: "0" })
        .reply(200, { options: {}, cards: [trelloCard, trelloCard, trelloCard] })
        .get("/1/search").query({ query: "launch post", modelTypes: "cards", idBoards: BOARD, cards_limit: "3", cards_page: "1" })
        .reply(200, { options: {}, cards: [trelloCard] })
      expect(yield* run("searchCards", { query: "launch post", idBoard: BOARD, limit: 3 })).toEqual({ cards: [found, found, found] })
      // A list filter reads full pages (Trello filters by board only) and keeps that list's cards.
      const elsewhere = { ...trelloCard, idList: OTHER_LIST }
      trello()
        .get("/1/search").query({ query: "launch", modelTypes: "cards", idBoards: BOARD, cards_limit: "1000", cards_page: "0" })
        .reply(200, { options: {}, cards: [elsewhere, trelloCard, elsewhere] })
      expect(yield* run("searchCards", { query: "launch", idBoard: BOARD, idList: LIST })).toEqual({ cards: [found] })
      // The limit was reached on the first page: the second is never asked for.
      expect(scope.pendingMocks()).toHaveLength(1)
    }))
})

describe("lists, boards and search: inputs and options", () => {
  it.effect("bad input is refused before anything is sent", () =>
    Effect.gen(function*() {
      const sent: Array<string> = []
      nock(/.*/).persist().get(/.*/).reply(200, {}).post(/.*/).reply(200, {}).put(/.*/).reply(200, {})
        .on("request", (req: { method: string; path: string }) => sent.push(`${req.method} ${req.path}`))
      const message = (effect: Effect.Effect<unknown, { message: string }, never>) => Effect.map(Effect.flip(effect), (e) => e.message)
      expect(yield* message(run("updateList", { idList: LIST }))).toContain("give at least one change")
      expect(yield* message(run("createList", { idBoard: BOARD, name: "x", pos: "middle" }))).toContain("pos: must be top, bottom or a positive number")
      expect(yield* message(run("listBoardLists", { idBoard: BOARD, filter: "archived" }))).toContain("filter:")
      expect(yield* message(run("moveAllCards", { idList: LIST, toBoard: BOARD, toList: LIST }))).toContain("toList: must be another list")
      expect(yield* message(run("createBoard", { name: "x", keepCards: true }))).toContain("keepCards: needs a board to copy")
      expect(yield* message(run("createBoard", { name: "x", permissionLevel: "secret" }))).toContain("permissionLevel:")
      expect(yield* message(run("updateBoard", { idBoard: BOARD }))).toContain("give at least one change")
      expect(yield* message(run("searchCards", { query: "x", idList: LIST }))).toContain("idBoard: is needed with a list")
      expect(yield* message(run("searchBoards", { query: "x", limit: 1001 }))).toContain("limit:")
      expect(yield* message(run("getBoard", { idBoard: "../members/me" }))).toContain("idBoard: must be a Trello id")
      expect(sent).toEqual([])
    }))

  it.effect("Trello's errors keep their text: an unknown list, a list of another board", () =>
    Effect.gen(function*() {
      trello().get(`/1/lists/${LIST}`).reply(404, "The requested resource was not found.", { "content-type": "text/plain" })
      expect(yield* Effect.flip(run("getList", { idList: LIST }))).toMatchObject({ _tag: "NotFound" })
      trello().post(`/1/lists/${LIST}/moveAllCards`).reply(400, "invalid value for idList", { "content-type": "text/plain" })
      expect(yield* Effect.flip(run("moveAllCards", { idList: LIST, toBoard: OTHER_BOARD, toList: OTHER_LIST }))).toMatchObject({
        _tag: "InvalidInput",
        message: "invalid value for idList"
      })
    }))

  it.effect("options: workspaces, archived boards, a board's archived lists, the target board's lists", () =>
    Effect.gen(function*() {
      const scope = trello()
        .get("/1/members/me/organizations").reply(200, [{ id: WORKSPACE, name: "acme", displayName: "Acme Inc", idBoards: [] }])
        .get("/1/members/me/boards").query({ filter: "closed" }).reply(200, [{ ...trelloBoard, closed: true }])
        .get(`/1/boards/${BOARD}/lists`).query({ filter: "closed" }).reply(200, [{ ...trelloList, closed: true }])
        .get(`/1/boards/${OTHER_BOARD}/lists`).query({ fields: "name" }).reply(200, [{ id: OTHER_LIST, name: "Inbox" }])
      expect(yield* options("listWorkspaceBoards", "idOrganization", {})).toEqual([{ label: "Acme Inc", value: WORKSPACE }])
      expect(yield* options("reopenBoard", "idBoard", {})).toEqual([{ label: "Launch", value: BOARD }])
      expect(yield* options("unarchiveList", "idList", { idBoard: BOARD })).toEqual([{ label: "To Do", value: LIST }])
      expect(yield* options("moveAllCards", "toList", { toBoard: OTHER_BOARD })).toEqual([{ label: "Inbox", value: OTHER_LIST }])
      expect(yield* options("moveAllCards", "toList", {})).toEqual([])
      expect(scope.isDone()).toBe(true)
    }))
})

void CARD

describe("lists, boards and search: described", () => {
  it("x-runner describe lists every one of them, with its output", () => {
    const names = ["createList", "getList", "updateList", "archiveList", "unarchiveList", "moveListToBoard", "listBoardLists", "findListByName",
      "moveAllCards", "getBoard", "updateBoard", "closeBoard", "reopenBoard", "deleteBoard", "listMyBoards", "listWorkspaceBoards",
      "searchBoards", "searchCards"]
    const described = Component.describe(boardtool).actions
    expect(described.map((a) => a.name)).toEqual(expect.arrayContaining(names))
    for (const name of names) expect(described.find((a) => a.name === name)!.output === null).toBe(name === "deleteBoard")
  })
})
