/**
 * Lists, boards, search and workspaces end to end: each action run through the executor against
 * the simulator, the simulator's state checked, and the Trello actions it records for each change.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { UndiciHttpClient } from "@x/http-undici"
import * as Effect from "effect/Effect"
import * as Simulator from "../src/testing/simulator.js"
import { kit, simulatorConnection } from "./support.js"

const { seed } = Simulator
let sim: Simulator.Simulator

beforeAll(async () => {
  sim = await Simulator.start({ rateLimits: false })
})
afterAll(() => sim.close())

const { options, run } = kit.connected(() => simulatorConnection(sim), UndiciHttpClient.layer)
/** The actions recorded since `from` (an index into `sim.actions`), as type and data. */
const recordedSince = (from: number) => sim.actions.slice(from).map((a) => ({ type: a.type, data: a.data }))

type List = { id: string; name: string; closed: boolean; idBoard: string; pos: number }

describe("lists against the simulator", () => {
  it.live("createList at the bottom (or top), getList, listBoardLists by state, findListByName", () =>
    Effect.gen(function*() {
      const from = sim.actions.length
      const created: List = yield* run("createList", { idBoard: seed.boards.roadmap, name: "Review" })
      expect(created).toMatchObject({ name: "Review", idBoard: seed.boards.roadmap, closed: false, pos: 4 * 16384 })
      const top: List = yield* run("createList", { idBoard: seed.boards.roadmap, name: "Inbox", pos: "top" })
      expect(top.pos).toBe(8192)
      expect(recordedSince(from).map((a) => [a.type, (a.data["list"] as { name: string }).name])).toEqual([["createList", "Review"], ["createList", "Inbox"]])
      expect(yield* run("getList", { idList: created.id })).toEqual(created)
      const { lists } = yield* run("listBoardLists", { idBoard: seed.boards.roadmap })
      expect(lists.map((l: List) => l.name)).toEqual(["Inbox", "To Do", "Doing", "Done", "Review"])
      expect(yield* run("findListByName", { idBoard: seed.boards.roadmap, name: "review" })).toEqual({ found: true, list: created })
      expect(yield* run("findListByName", { idBoard: seed.boards.roadmap, name: "Nowhere" })).toEqual({ found: false, list: null })
    }))

  it.live("createList copying a list's cards", () =>
    Effect.gen(function*() {
      const copy: List = yield* run("createList", { idBoard: seed.boards.operations, name: "Copy", idListSource: seed.lists.roadmapToDo })
      expect([...sim.cards.values()].filter((c) => c.idList === copy.id && !c.closed).map((c) => c.name))
        .toEqual([...sim.cards.values()].filter((c) => c.idList === seed.lists.roadmapToDo && !c.closed).map((c) => c.name))
    }))

  it.live("updateList, archiveList, unarchiveList: an updateList recorded per change, with the old value", () =>
    Effect.gen(function*() {
      const list: List = yield* run("createList", { idBoard: seed.boards.operations, name: "Triage" })
      const from = sim.actions.length
      expect(yield* run("updateList", { idList: list.id, name: "Triage 2", pos: "5" })).toMatchObject({ name: "Triage 2", pos: 5 })
      expect(yield* run("archiveList", { idList: list.id })).toMatchObject({ closed: true })
      const { lists } = yield* run("listBoardLists", { idBoard: seed.boards.operations, filter: "closed" })
      expect(lists.map((l: List) => l.id)).toEqual([list.id])
      expect(yield* run("findListByName", { idBoard: seed.boards.operations, name: "Triage 2" })).toEqual({ found: false, list: null })
      expect(yield* run("findListByName", { idBoard: seed.boards.operations, name: "Triage 2", includeArchived: true })).toMatchObject({ found: true })
      expect(yield* run("unarchiveList", { idList: list.id })).toMatchObject({ closed: false })
      const listRef = { id: list.id, name: "Triage 2" }
      expect(recordedSince(from)).toEqual([
        { type: "updateList", data: { list: { ...listRef, name: "Triage", pos: 5 }, old: { pos: list.pos }, board: expect.objectContaining({ id: seed.boards.operations }) } },
        { type: "updateList", data: { list: listRef, old: { name: "Triage" }, board: expect.objectContaining({ id: seed.boards.operations }) } },
        { type: "updateList", data: { list: { ...listRef, closed: true }, old: { closed: false }, board: expect.objectContaining({ id: seed.boards.operations }) } },
        { type: "updateList", data: { list: { ...listRef, closed: false }, old: { closed: true }, board: expect.objectContaining({ id: seed.boards.operations }) } }
      ])
    }))

  it.live("moveListToBoard: the list and its cards change board; moveListFromBoard and moveListToBoard recorded", () =>
    Effect.gen(function*() {
      const list: List = yield* run("createList", { idBoard: seed.boards.operations, name: "Moving" })
      const card = sim.cards.get((yield* run("createCard", { idList: list.id, name: "Goes along" })).id)!
      const from = sim.actions.length
      const moved: List = yield* run("moveListToBoard", { idList: list.id, toBoard: seed.boards.roadmap, pos: "top" })
      expect(moved.idBoard).toBe(seed.boards.roadmap)
      expect(card.idBoard).toBe(seed.boards.roadmap)
      expect(recordedSince(from)).toEqual([
        { type: "moveListFromBoard", data: { list: { id: list.id, name: "Moving" }, board: expect.objectContaining({ id: seed.boards.operations }), boardTarget: { id: seed.boards.roadmap } } },
        { type: "moveListToBoard", data: { list: { id: list.id, name: "Moving" }, board: expect.objectContaining({ id: seed.boards.roadmap }), boardSource: { id: seed.boards.operations } } }
      ])
    }))

  it.live("moveAllCards: same board, an updateCard per card with listBefore/listAfter; another board, moveCardFromBoard and moveCardToBoard", () =>
    Effect.gen(function*() {
      const source: List = yield* run("createList", { idBoard: seed.boards.operations, name: "Source" })
      const target: List = yield* run("createList", { idBoard: seed.boards.operations, name: "Target" })
      for (const name of ["One", "Two"]) yield* run("createCard", { idList: source.id, name })
      const from = sim.actions.length
      const output = yield* run("moveAllCards", { idList: source.id, toBoard: seed.boards.operations, toList: target.id })
      expect(output.moved).toBe(2)
      expect(output.cards.map((c: { name: string; idList: string }) => [c.name, c.idList])).toEqual([["One", target.id], ["Two", target.id]])
      const moves = recordedSince(from)
      expect(moves.map((a) => a.type)).toEqual(["updateCard", "updateCard"])
      expect(moves[0]!.data).toMatchObject({
        card: { name: "One", idList: target.id },
        old: { idList: source.id },
        listBefore: { id: source.id, name: "Source" },
        listAfter: { id: target.id, name: "Target" },
        board: { id: seed.boards.operations }
      })
      // To another board.
      const next = sim.actions.length
      const away = yield* run("moveAllCards", { idList: target.id, toBoard: seed.boards.roadmap, toList: seed.lists.roadmapDone })
      expect(away.cards.every((c: { idBoard: string }) => c.idBoard === seed.boards.roadmap)).toBe(true)
      expect(recordedSince(next).map((a) => a.type)).toEqual(["moveCardFromBoard", "moveCardToBoard", "moveCardFromBoard", "moveCardToBoard"])
      // Nothing left to move: nothing moved, nothing recorded.
      const last = sim.actions.length
      expect(yield* run("moveAllCards", { idList: target.id, toBoard: seed.boards.operations, toList: source.id })).toEqual({ moved: 0, cards: [] })
      expect(sim.actions.length).toBe(last)
    }))

  it.live("Trello's errors: an unknown list, a target list on another board, a malformed id", () =>
    Effect.gen(function*() {
      const unknown = "5eed00000000000000000fff"
      expect(yield* Effect.flip(run("getList", { idList: unknown }))).toMatchObject({ _tag: "NotFound", message: "The requested resource was not found." })
      expect(yield* Effect.flip(run("moveAllCards", { idList: seed.lists.roadmapToDo, toBoard: seed.boards.operations, toList: seed.lists.roadmapDone })))
        .toMatchObject({ _tag: "InvalidInput", message: "invalid value for idList" })
      expect(yield* Effect.flip(run("createList", { idBoard: unknown, name: "x" }))).toMatchObject({ _tag: "NotFound" })
    }))
})

describe("boards and workspaces against the simulator", () => {
  it.live("createBoard: default lists and labels, a workspace, a permission level; or empty; or copied with its cards", () =>
    Effect.gen(function*() {
      const full = yield* run("createBoard", { name: "Full", idOrganization: seed.workspaces.marketing, permissionLevel: "public" })
      expect(full).toMatchObject({ name: "Full", idOrganization: seed.workspaces.marketing, prefs: { permissionLevel: "public" }, closed: false })
      expect([...sim.lists.values()].filter((l) => l.idBoard === full.id).map((l) => l.name)).toEqual(["To Do", "Doing", "Done"])
      expect([...sim.labels.values()].filter((l) => l.idBoard === full.id).map((l) => l.color)).toEqual(["green", "yellow", "orange", "red", "purple", "blue"])
      const empty = yield* run("createBoard", { name: "Empty", defaultLists: false, defaultLabels: false })
      expect([...sim.lists.values()].filter((l) => l.idBoard === empty.id)).toEqual([])
      expect([...sim.labels.values()].filter((l) => l.idBoard === empty.id)).toEqual([])
      expect(empty.prefs.permissionLevel).toBe("private")
      const copy = yield* run("createBoard", { name: "Copy", idBoardSource: seed.boards.roadmap, keepCards: true })
      const names = (idBoard: string) => [...sim.cards.values()].filter((c) => c.idBoard === idBoard && !c.closed).map((c) => c.name).sort()
      expect(names(copy.id)).toEqual(names(seed.boards.roadmap))
      const bare = yield* run("createBoard", { name: "Bare copy", idBoardSource: seed.boards.roadmap, keepCards: false })
      expect(names(bare.id)).toEqual([])
      expect([...sim.lists.values()].filter((l) => l.idBoard === bare.id).length).toBe([...sim.lists.values()].filter((l) => l.idBoard === seed.boards.roadmap && !l.closed).length)
    }))

  it.live("getBoard, updateBoard (an updateBoard recorded per field, with old), closeBoard, reopenBoard, listMyBoards by state", () =>
    Effect.gen(function*() {
      const board = yield* run("createBoard", { name: "Plans", desc: "v1" })
      expect(yield* run("getBoard", { idBoard: board.id })).toEqual(board)
      const from = sim.actions.length
      expect(yield* run("updateBoard", { idBoard: board.id, name: "Plans 2", desc: "v2", permissionLevel: "org" })).toMatchObject({
        name: "Plans 2", desc: "v2", prefs: { permissionLevel: "org" }
      })
      expect(yield* run("closeBoard", { idBoard: board.id })).toMatchObject({ closed: true })
      const closed = yield* run("listMyBoards", { filter: "closed" })
      expect(closed.boards.map((b: { id: string }) => b.id)).toContain(board.id)
      expect((yield* run("listMyBoards", {})).boards.map((b: { id: string }) => b.id)).not.toContain(board.id)
      expect(yield* run("reopenBoard", { idBoard: board.id })).toMatchObject({ closed: false })
      const ref = expect.objectContaining({ id: board.id })
      expect(recordedSince(from)).toEqual([
        { type: "updateBoard", data: { board: ref, old: { name: "Plans" } } },
        { type: "updateBoard", data: { board: expect.objectContaining({ desc: "v2" }), old: { desc: "v1" } } },
        { type: "updateBoard", data: { board: expect.objectContaining({ prefs: { permissionLevel: "org" } }), old: { prefs: { permissionLevel: "private" } } } },
        { type: "updateBoard", data: { board: expect.objectContaining({ closed: true }), old: { closed: false } } },
        { type: "updateBoard", data: { board: expect.objectContaining({ closed: false }), old: { closed: true } } }
      ])
    }))

  it.live("deleteBoard: the board, its lists and cards are gone; reading it again is Trello's 404", () =>
    Effect.gen(function*() {
      const board = yield* run("createBoard", { name: "Doomed" })
      const idList = [...sim.lists.values()].find((l) => l.idBoard === board.id)!.id
      yield* run("createCard", { idList, name: "Doomed card" })
      expect(yield* run("deleteBoard", { idBoard: board.id })).toBeNull()
      expect(sim.boards.has(board.id)).toBe(false)
      expect([...sim.lists.values()].some((l) => l.idBoard === board.id)).toBe(false)
      expect([...sim.cards.values()].some((c) => c.idBoard === board.id)).toBe(false)
      expect(yield* Effect.flip(run("getBoard", { idBoard: board.id }))).toMatchObject({ _tag: "NotFound" })
    }))

  it.live("listWorkspaceBoards: the seeded boards are in the member's workspace; a board moved to Marketing Team is listed there", () =>
    Effect.gen(function*() {
      const main = yield* run("listWorkspaceBoards", { idOrganization: seed.workspaces.main })
      expect(main.boards.map((b: { id: string }) => b.id)).toEqual(expect.arrayContaining([seed.boards.roadmap, seed.boards.operations]))
      const board = yield* run("createBoard", { name: "Campaign" })
      yield* run("updateBoard", { idBoard: board.id, idOrganization: seed.workspaces.marketing })
      const marketing = yield* run("listWorkspaceBoards", { idOrganization: seed.workspaces.marketing, filter: "open" })
      expect(marketing.boards.map((b: { name: string }) => b.name)).toContain("Campaign")
      expect(marketing.boards.every((b: { idOrganization: string }) => b.idOrganization === seed.workspaces.marketing)).toBe(true)
    }))

  it.live("options: the member's workspaces by display name", () =>
    Effect.gen(function*() {
      const choices = yield* options("listWorkspaceBoards", "idOrganization", {})
      expect(choices).toEqual([
        { label: "Simulated Workspace", value: seed.workspaces.main },
        { label: "Marketing Team", value: seed.workspaces.marketing }
      ])
    }))
})

describe("search against the simulator", () => {
  it.live("searchCards: whole words by default, word starts with partial, on a board, in a list, paged to the limit", () =>
    Effect.gen(function*() {
      const found = yield* run("searchCards", { query: "launch post" })
      expect(found.cards.map((c: { id: string }) => c.id)).toContain(seed.cards.launchPost)
      expect((yield* run("searchCards", { query: "laun" })).cards).toEqual([])
      expect((yield* run("searchCards", { query: "laun", partial: true })).cards.map((c: { id: string }) => c.id)).toContain(seed.cards.launchPost)
      expect((yield* run("searchCards", { query: "launch", idBoard: seed.boards.operations })).cards.map((c: { id: string }) => c.id))
        .not.toContain(seed.cards.launchPost)
      const list: List = yield* run("createList", { idBoard: seed.boards.operations, name: "Searchable" })
      for (let i = 0; i < 5; i++) yield* run("createCard", { idList: list.id, name: `Zebra ${i}` })
      yield* run("createCard", { idList: seed.lists.operationsToDo, name: "Zebra elsewhere" })
      const inList = yield* run("searchCards", { query: "zebra", idBoard: seed.boards.operations, idList: list.id })
      expect(inList.cards.map((c: { name: string }) => c.name).sort()).toEqual(["Zebra 0", "Zebra 1", "Zebra 2", "Zebra 3", "Zebra 4"])
      const two = yield* run("searchCards", { query: "zebra", limit: 2 })
      expect(two.cards).toHaveLength(2)
      expect(two.cards[0]).toMatchObject({ closed: false, due: null, url: expect.stringContaining("https://trello.com/c/") })
    }))

  it.live("searchBoards: by name, in a workspace, up to the limit", () =>
    Effect.gen(function*() {
      const found = yield* run("searchBoards", { query: "roadmap" })
      expect(found.boards.map((b: { id: string }) => b.id)).toEqual([seed.boards.roadmap])
      expect(found.boards[0]).toMatchObject({ name: "Product Roadmap", prefs: { permissionLevel: "org" }, idOrganization: seed.workspaces.main })
      expect((yield* run("searchBoards", { query: "roadmap", idOrganization: seed.workspaces.marketing })).boards).toEqual([])
      expect((yield* run("searchBoards", { query: "product roadmap", limit: 1 })).boards).toHaveLength(1)
    }))
})
