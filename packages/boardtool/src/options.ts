/** Dynamic options: the member's boards, and a board's lists and cards (label = name, value = id). */
import { Options, Property } from "@x/core"
import * as Effect from "effect/Effect"
import * as Api from "./api.js"

const choices = (items: ReadonlyArray<typeof Api.Named.Type>) => Options.choices(items, (i) => i.name, (i) => i.id)
const idBoardOf = (params: Readonly<Record<string, unknown>>) => String(params["idBoard"])

export const boards = Options.dynamic([], ({ client }) => Effect.map(Api.myBoards(client), choices))
export const lists = Options.dynamic(["idBoard"], ({ client, params }) => Effect.map(Api.boardLists(client, idBoardOf(params)), choices))
export const cards = Options.dynamic(["idBoard"], ({ client, params }) => Effect.map(Api.boardCards(client, idBoardOf(params)), choices))

const id = { pattern: Api.idPattern, patternMessage: "must be a Trello id (24 hexadecimal digits)" } as const

/** The board, for choosing a list or card; not sent. */
export const idBoard = Property.string({ title: "Board", ...id, dynamicOptions: boards })
