/**
 * Trello's actions as the triggers read them (REST API 1): the action a webhook delivers (or
 * `GET /boards/{id}/actions` lists), the models a webhook watches, and the recent actions of a
 * model (the triggers' sample data).
 */
import { type ProviderClient, ProviderRequest } from "@x/core"
import * as Schema from "effect/Schema"
import { CardDetails } from "./cards.js"

const { path } = ProviderRequest

/** Who did it, as Trello nests them in an action (absent from some old actions). */
export const MemberCreator = Schema.Struct({ id: Schema.String, username: Schema.String, fullName: Schema.String })

/** An action as a delivery or an action list gives it: its id, type, date, author, and data. */
export const TrelloAction = Schema.Struct({
  id: Schema.String,
  type: Schema.String,
  date: Schema.String,
  idMemberCreator: Schema.String,
  memberCreator: Schema.optionalWith(Schema.NullOr(MemberCreator), { default: () => null }),
  data: Schema.Record({ key: Schema.String, value: Schema.Unknown })
})
export type TrelloAction = typeof TrelloAction.Type

/** What every trigger's event says of the action behind it (the data left out: each trigger types what it needs). */
export const Activity = Schema.Struct({
  id: Schema.String,
  type: Schema.String,
  date: Schema.String,
  idMemberCreator: Schema.String,
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

/** A card as the card triggers output it (read back: a delivery names the card, without its fields). */
export const readCard = (client: ProviderClient.ProviderClient, id: string) =>
  client.json({ method: "GET", path: path`/cards/${id}` }, CardDetails)
