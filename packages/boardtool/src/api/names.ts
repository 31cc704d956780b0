/**
 * Boards, lists and cards by id and name only (`fields=name`): what the dynamic options list,
 * and what a bulk action walks.
 */
import { type ProviderClient, ProviderRequest } from "@x/core"
import * as Schema from "effect/Schema"

const { path } = ProviderRequest

/** A record by id and name (a name Trello leaves out is empty). */
export const Named = Schema.Struct({ id: Schema.String, name: Schema.optionalWith(Schema.String, { default: () => "" }) })

// Open boards only: the list's default filter is "all", archived ones included.
export const myBoards = (client: ProviderClient.ProviderClient) =>
  client.json({ method: "GET", path: "/members/me/boards", query: { filter: "open", fields: "name" } }, Schema.Array(Named))

export const boardLists = (client: ProviderClient.ProviderClient, idBoard: string) =>
  client.json({ method: "GET", path: path`/boards/${idBoard}/lists`, query: { fields: "name" } }, Schema.Array(Named))

export const boardCards = (client: ProviderClient.ProviderClient, idBoard: string) =>
  client.json({ method: "GET", path: path`/boards/${idBoard}/cards`, query: { fields: "name" } }, Schema.Array(Named))

/** A list's open cards, by id and name (the list's default filter is "open"). */
export const openCardsOfList = (client: ProviderClient.ProviderClient, idList: string) =>
  client.json({ method: "GET", path: path`/lists/${idList}/cards`, query: { fields: "name" } }, Schema.Array(Named))
