/** Dynamic options: the member's boards, and a board's lists and cards (label = name, value = id). */
import { Choice, DynamicOptions } from "@x/core"
import * as Effect from "effect/Effect"
import * as Api from "./api.js"

const choices = (items: ReadonlyArray<typeof Api.Named.Type>) => Choice.fromRecords(items, (i) => i.name, (i) => i.id)
const idBoardOf = (params: Readonly<Record<string, unknown>>) => String(params["idBoard"])

export const boards = DynamicOptions.make([], ({ client }) => Effect.map(Api.myBoards(client), choices))
export const lists = DynamicOptions.make(["idBoard"], ({ client, params }) => Effect.map(Api.boardLists(client, idBoardOf(params)), choices))
export const cards = DynamicOptions.make(["idBoard"], ({ client, params }) => Effect.map(Api.boardCards(client, idBoardOf(params)), choices))
