/**
 * Trello's actions (REST API 1): a board's actions page by page (`listBoardActions`), the action
 * a webhook delivers (or `GET /boards/{id}/actions` lists), the models a webhook watches, and the
 * recent actions of a model (the triggers' sample data).
 */
import { Pagination, type ProviderClient, ProviderRequest } from "@x/core"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Struct from "effect/Struct"
import { Attachment } from "./attachments.js"
import { Board } from "./boards.js"
import { CardDetails } from "./cards.js"
import { Label } from "./labels.js"
import { List } from "./lists.js"

const { path } = ProviderRequest

/**
 * An action on a board (a card created, a comment, an update): who, what, when, and its data.
 * Its `type` says what it is, so it is required with the id; `data` is `{}` when left out.
 */
export const BoardAction = Schema.Struct({
  id: Schema.String,
  type: Schema.String,
  date: Schema.optional(Schema.String),
  idMemberCreator: Schema.optional(Schema.String),
  data: Schema.optionalWith(Schema.Record({ key: Schema.String, value: Schema.Unknown }), { default: () => ({}) })
})
export type BoardAction = typeof BoardAction.Type

/**
 * A board's actions, newest first, as a stream up to `maxItems`: Trello answers at most 1000 a
 * request, and the next page is the actions `before` the last one received.
 */
export const boardActions = (
  client: ProviderClient.ProviderClient,
  query: { idBoard: string; filter?: string | undefined; since?: string | undefined },
  maxItems: number
) =>
  Pagination.keyset(
    { pageSize: 1000, maxItems },
    (before, limit) =>
      client.json({
        method: "GET",
        path: path`/boards/${query.idBoard}/actions`,
        query: { filter: query.filter, since: query.since, before, limit }
      }, Schema.Array(BoardAction)),
    (action) => action.id
  )

/** Who did it, as Trello nests them in an action (absent from some old actions; a name Trello leaves out is empty). */
export const MemberCreator = Schema.Struct({
  id: Schema.String,
  username: Schema.optionalWith(Schema.String, { default: () => "" }),
  fullName: Schema.optionalWith(Schema.String, { default: () => "" })
})

/** An action as a delivery or an action list gives it: its id, type, date, author, and data. */
export const TrelloAction = Schema.Struct({
  ...BoardAction.fields,
  memberCreator: Schema.optionalWith(Schema.NullOr(MemberCreator), { default: () => null })
})
export type TrelloAction = typeof TrelloAction.Type

/** What every trigger's event says of the action behind it (the data left out: each trigger types what it needs). */
export const Activity = Schema.Struct({
  ...Struct.omit(BoardAction.fields, "data"),
  memberCreator: Schema.NullOr(MemberCreator)
})
export type Activity = typeof Activity.Type

export const activityOf = ({ date, id, idMemberCreator, memberCreator, type }: TrelloAction): Activity => ({
  id, type, date, idMemberCreator, memberCreator
})

/** A webhook delivery: `{action, model}`; only the action is read. */
export const Delivery = Schema.Struct({ action: TrelloAction })

/** A model named in an action's data (`card`, `list`, `listAfter`, `label` ...): its id and name where Trello gives them. */
export const Ref = Schema.Struct({ id: Schema.String, name: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }) })
export type Ref = typeof Ref.Type

const decodeRef = Schema.decodeUnknownOption(Ref)
/** The reference under `key` in an action's data, if it is one. */
export const refOf = (action: TrelloAction, key: string): Ref | undefined => {
  const found = decodeRef(action.data[key])
  return found._tag === "Some" ? found.value : undefined
}

/** What a webhook watches: Trello takes any model's id; the kind says where its recent actions are read. */
export type ModelKind = "board" | "list" | "card" | "organization"
export interface Model {
  readonly kind: ModelKind
  readonly id: string
}

const Actions = Schema.Array(TrelloAction)

/**
 * A model's latest actions of these types (all types when none), newest first. A list's and a
 * card's action lists take no `limit` in Trello's document: they answer their default page.
 */
export const recentActions = (client: ProviderClient.ProviderClient, model: Model, types: ReadonlyArray<string>, limit: number) => {
  const filter = types.length === 0 ? "all" : types.join(",")
  switch (model.kind) {
    case "board":
      return client.json({ method: "GET", path: path`/boards/${model.id}/actions`, query: { filter, limit } }, Actions)
    case "list":
      return client.json({ method: "GET", path: path`/lists/${model.id}/actions`, query: { filter } }, Actions)
    case "card":
      return client.json({ method: "GET", path: path`/cards/${model.id}/actions`, query: { filter } }, Actions)
    case "organization":
      return client.json({ method: "GET", path: path`/organizations/${model.id}/actions`, query: { filter, limit } }, Actions)
  }
}

/** How many of a board's actions a catch-up reads at most (ten of Trello's pages). */
export const catchUpLimit = 10_000

/**
 * A model's actions of these types (all types when none) since a time, oldest first: what its
 * webhook would have delivered while nothing received them. A board's are paged with Trello's
 * `since` and `before` (1000 a page, up to `catchUpLimit`); a list's, a card's and a workspace's
 * action lists take no `since` in Trello's document, so their latest page is read and what is
 * older than `since` dropped.
 */
export const actionsSince = (client: ProviderClient.ProviderClient, model: Model, types: ReadonlyArray<string>, since: Date) => {
  const filter = types.length === 0 ? "all" : types.join(",")
  const oldestFirst = (actions: ReadonlyArray<TrelloAction>) => [...actions].reverse()
  if (model.kind === "board") {
    return Effect.map(
      Pagination.collect(Pagination.keyset(
        { pageSize: 1000, maxItems: catchUpLimit },
        (before, limit) =>
          client.json({
            method: "GET",
            path: path`/boards/${model.id}/actions`,
            query: { filter, since: since.toISOString(), before, limit }
          }, Actions),
        (action) => action.id
      )),
      oldestFirst
    )
  }
  return Effect.map(
    recentActions(client, model, types, 1000),
    (actions) => oldestFirst(actions.filter((action) => action.date === undefined || Date.parse(action.date) >= since.getTime()))
  )
}

/** A card as the card triggers output it (read back: a delivery names the card, without its fields). */
export const readCard = (client: ProviderClient.ProviderClient, id: string) =>
  client.json({ method: "GET", path: path`/cards/${id}` }, CardDetails)

// --- the triggers' outputs: the action (id, type, date, author) and what it is about ---

/** A label as an action names it. */
export const LabelRef = Schema.Struct({ ...Ref.fields, color: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }) })
/** A check item as an action names it (its state absent when the action leaves it out). */
export const CheckItemRef = Schema.Struct({ ...Ref.fields, state: Schema.optional(Schema.String) })

/** Something happened to a card: the action, and the card as it is now (read back). */
export const CardEvent = Schema.Struct({ action: Activity, card: CardDetails })
export type CardEvent = typeof CardEvent.Type

/** A card moved: from which list (none said when it came from another board) to which. */
export const CardMoved = Schema.Struct({
  ...CardEvent.fields,
  listBefore: Schema.NullOr(Ref),
  listAfter: Ref,
  /** The board it came from, when it came from another one. */
  boardSource: Schema.NullOr(Schema.Struct({ id: Schema.String }))
})
/** A card changed: the fields that changed and their values before. */
export const CardUpdated = Schema.Struct({
  ...CardEvent.fields,
  changed: Schema.Array(Schema.String),
  old: Schema.Record({ key: Schema.String, value: Schema.Unknown })
})
export const CommentAdded = Schema.Struct({ ...CardEvent.fields, text: Schema.String })
export const LabelAddedToCard = Schema.Struct({ ...CardEvent.fields, label: LabelRef })
export const MemberAddedToCard = Schema.Struct({ ...CardEvent.fields, member: Ref })
export const AttachmentAdded = Schema.Struct({ ...CardEvent.fields, attachment: Attachment })
export const CheckItemCompleted = Schema.Struct({ ...CardEvent.fields, checkItem: CheckItemRef, checklist: Ref })
export const NewList = Schema.Struct({ action: Activity, list: List })
export const NewLabel = Schema.Struct({ action: Activity, label: Label })
export const NewBoard = Schema.Struct({ action: Activity, board: Board })

const decodeLabelRef = Schema.decodeUnknownOption(LabelRef)
const decodeCheckItemRef = Schema.decodeUnknownOption(CheckItemRef)
export const labelRefOf = (action: TrelloAction) => Option.getOrUndefined(decodeLabelRef(action.data["label"]))
export const checkItemRefOf = (action: TrelloAction) => Option.getOrUndefined(decodeCheckItemRef(action.data["checkItem"]))
/** A string in an action's data (`text` of a comment ...). */
export const textOf = (action: TrelloAction, key: string) => {
  const value = action.data[key]
  return typeof value === "string" ? value : undefined
}
/** An object in an action's data (`old` of an update ...). */
export const recordOf = (action: TrelloAction, key: string): Readonly<Record<string, unknown>> => {
  const value = action.data[key]
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : {}
}
