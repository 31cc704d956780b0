/** Checklists on cards and their items: wire calls and records. */
import { type ProviderClient, ProviderRequest } from "@x/core"
import * as Schema from "effect/Schema"
import { listOr, nullOr } from "./shared.js"

const { path } = ProviderRequest

/** `top`, `bottom`, or a positive number, as Trello places checklists and their items. */
export type Position = "top" | "bottom" | number

/**
 * An item of a checklist: a name left out is empty, no due date or member (null);
 * `idChecklist`, `state` and `pos` are then absent (a state is not guessed: it may be either).
 */
export const CheckItem = Schema.Struct({
  id: Schema.String,
  idChecklist: Schema.optional(Schema.String),
  name: Schema.optionalWith(Schema.String, { default: () => "" }),
  state: Schema.optional(Schema.Literal("complete", "incomplete")),
  pos: Schema.optional(Schema.Number),
  due: nullOr(Schema.String),
  idMember: nullOr(Schema.String)
})
export type CheckItem = typeof CheckItem.Type

/** A checklist: a name left out is empty, no items `[]`; `idBoard`, `idCard` and `pos` are then absent. */
export const Checklist = Schema.Struct({
  id: Schema.String,
  name: Schema.optionalWith(Schema.String, { default: () => "" }),
  idBoard: Schema.optional(Schema.String),
  idCard: Schema.optional(Schema.String),
  pos: Schema.optional(Schema.Number),
  checkItems: listOr(CheckItem)
})
export type Checklist = typeof Checklist.Type

export const createChecklist = (
  client: ProviderClient.ProviderClient,
  idCard: string,
  checklist: { name?: string | undefined; idChecklistSource?: string | undefined; pos?: Position | undefined }
) => client.json({ method: "POST", path: path`/cards/${idCard}/checklists`, body: ProviderRequest.formBody(checklist) }, Checklist)

export const cardChecklists = (client: ProviderClient.ProviderClient, idCard: string) =>
  client.json({ method: "GET", path: path`/cards/${idCard}/checklists` }, Schema.Array(Checklist))

export const updateChecklist = (
  client: ProviderClient.ProviderClient,
  id: string,
  changes: { name?: string | undefined; pos?: Position | undefined }
) => client.json({ method: "PUT", path: path`/checklists/${id}`, body: ProviderRequest.formBody(changes) }, Checklist)

export const deleteChecklist = (client: ProviderClient.ProviderClient, id: string) =>
  client.void({ method: "DELETE", path: path`/checklists/${id}` })

export const checkItems = (client: ProviderClient.ProviderClient, idChecklist: string) =>
  client.json({ method: "GET", path: path`/checklists/${idChecklist}/checkItems` }, Schema.Array(CheckItem))

export const addCheckItem = (
  client: ProviderClient.ProviderClient,
  idChecklist: string,
  item: {
    name: string
    pos?: Position | undefined
    checked?: boolean | undefined
    due?: string | undefined
    idMember?: string | undefined
  }
) => client.json({ method: "POST", path: path`/checklists/${idChecklist}/checkItems`, body: ProviderRequest.formBody(item) }, CheckItem)

/** Renames, ticks or unticks, moves, dates or assigns an item: Trello updates items through their card. */
export const updateCheckItem = (
  client: ProviderClient.ProviderClient,
  idCard: string,
  idCheckItem: string,
  changes: {
    name?: string | undefined
    state?: "complete" | "incomplete" | undefined
    pos?: Position | undefined
    due?: string | undefined
    idMember?: string | undefined
  }
) =>
  client.json({
    method: "PUT",
    path: path`/cards/${idCard}/checkItem/${idCheckItem}`,
    body: ProviderRequest.formBody(changes)
  }, CheckItem)

export const deleteCheckItem = (client: ProviderClient.ProviderClient, idChecklist: string, idCheckItem: string) =>
  client.void({ method: "DELETE", path: path`/checklists/${idChecklist}/checkItems/${idCheckItem}` })
