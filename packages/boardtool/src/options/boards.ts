/** Dynamic options of the boards, lists and cards: the member's boards and workspaces, a board's lists and cards, the lists of the board a card goes to, archived boards and lists (label = name, value = id). */
import { Choice, DynamicOptions } from "@x/core"
import * as Effect from "effect/Effect"
import * as Names from "../api/names.js"
import * as BoardsApi from "../api/boards.js"
import * as ListsApi from "../api/lists.js"

const choices = (items: ReadonlyArray<typeof Names.Named.Type>) => Choice.fromRecords(items, (i) => i.name, (i) => i.id)

export const boards = DynamicOptions.make([], ({ client }) => Effect.map(Names.myBoards(client), choices))
export const lists = DynamicOptions.make(["idBoard"], ({ client, params }) =>
  Effect.map(Names.boardLists(client, DynamicOptions.dependency(params, "idBoard")), choices))
export const cards = DynamicOptions.make(["idBoard"], ({ client, params }) =>
  Effect.map(Names.boardCards(client, DynamicOptions.dependency(params, "idBoard")), choices))

/** The lists of the board named by `toBoard` (where a card is moved or copied to). */
export const targetLists = DynamicOptions.make(["toBoard"], ({ client, params }) =>
  Effect.map(Names.boardLists(client, DynamicOptions.dependency(params, "toBoard")), choices))

/** The member's workspaces (label = display name). */
export const workspaces = DynamicOptions.make([], ({ client }) =>
  Effect.map(BoardsApi.myWorkspaces(client), (items) => Choice.fromRecords(items, (w) => w.displayName, (w) => w.id)))
/** The member's archived boards, to reopen one. */
export const closedBoards = DynamicOptions.make([], ({ client }) => Effect.map(BoardsApi.memberBoards(client, "closed"), choices))
/** A board's archived lists, to unarchive one. */
export const closedLists = DynamicOptions.make(["idBoard"], ({ client, params }) =>
  Effect.map(ListsApi.boardLists(client, DynamicOptions.dependency(params, "idBoard"), "closed"), choices))
