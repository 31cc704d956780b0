/**
 * Lists on the wire (REST API 1): create, read, update (name, position, archived, board), a
 * board's lists by state, and moving all of a list's cards. Parameters go in a form body, which
 * Trello reads as it reads the query.
 */
import { ProviderClient, ProviderRequest } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Cards from "./cards.js"
import { falseOr, newestCreatedSince } from "./shared.js"

const { path } = ProviderRequest

/** A list as the component outputs it: a name left out is empty, `closed` false; `idBoard` and `pos` are then absent. */
export const List = Schema.Struct({
  id: Schema.String,
  name: Schema.optionalWith(Schema.String, { default: () => "" }),
  closed: falseOr,
  idBoard: Schema.optional(Schema.String),
  pos: Schema.optional(Schema.Number)
})
export type List = typeof List.Type

/** Which lists (or boards) to read: open ones, archived ones, or both. */
export type State = "open" | "closed" | "all"

/** `top`, `bottom` or a positive number, as Trello takes a position. */
export type Position = string

export const createList = (
  client: ProviderClient.ProviderClient,
  list: { idBoard: string; name: string; pos?: Position | undefined; idListSource?: string | undefined }
) => client.json({ method: "POST", path: "/lists", body: ProviderRequest.formBody(list) }, List)

export const getList = (client: ProviderClient.ProviderClient, id: string) =>
  client.json({ method: "GET", path: path`/lists/${id}` }, List)

/** What an update may change; moving to another board is `idBoard` (with a position there). */
export interface ListChanges {
  readonly name?: string | undefined
  readonly pos?: Position | undefined
  readonly closed?: boolean | undefined
  readonly idBoard?: string | undefined
  readonly subscribed?: boolean | undefined
}

export const updateList = (client: ProviderClient.ProviderClient, id: string, changes: ListChanges) =>
  client.json({ method: "PUT", path: path`/lists/${id}`, body: ProviderRequest.formBody({ ...changes }) }, List)

/**
 * The open list of this name on the board created at or after `since`, the newest if several:
 * what a `createList` cut short may have created.
 */
export const findCreatedList = (client: ProviderClient.ProviderClient, where: { readonly idBoard: string; readonly name: string }, since: Date) =>
  Effect.map(boardLists(client, where.idBoard, "open"), (lists) => newestCreatedSince(lists, where.name, since))

/** A board's lists in their order; Trello answers them all at once (no paging). */
export const boardLists = (client: ProviderClient.ProviderClient, idBoard: string, filter: State) =>
  client.json({ method: "GET", path: path`/boards/${idBoard}/lists`, query: { filter } }, Schema.Array(List))

/** A board's list whose name is `name` (case and surrounding spaces ignored), the open ones first. */
export const findListByName = (
  client: ProviderClient.ProviderClient,
  idBoard: string,
  name: string,
  filter: State
) =>
  Effect.map(boardLists(client, idBoard, filter), (lists) => {
    const wanted = name.trim().toLowerCase()
    const matches = lists.filter((l) => l.name.trim().toLowerCase() === wanted)
    return matches.find((l) => !l.closed) ?? matches[0] ?? null
  })

/**
 * Moves every card of a list to a list (of this board or another), as one request; Trello
 * answers the moved cards.
 */
export const moveAllCards = (
  client: ProviderClient.ProviderClient,
  idList: string,
  to: { idBoard: string; idList: string }
) =>
  client.json({
    method: "POST",
    path: path`/lists/${idList}/moveAllCards`,
    body: ProviderRequest.formBody({ idBoard: to.idBoard, idList: to.idList })
  }, Schema.Array(Cards.Card))
