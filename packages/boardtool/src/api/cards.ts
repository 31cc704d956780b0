/**
 * Cards and votes on the wire (REST API 1, `../shared/specs/trello`): the card as the card
 * actions output it, what `GET /cards/{id}` nests in it on request, and the calls.
 */
import { ConnectorError, Pagination, type ProviderClient, ProviderRequest } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { Attachment } from "./attachments.js"
import { Checklist } from "./checklists.js"
import { CustomFieldItem } from "./customFields.js"
import { Named } from "./names.js"
import { falseOr, listOr, newestCreatedSince, nullOr } from "./shared.js"

const { path } = ProviderRequest

/** The card as the component outputs it (the seed's five fields, all required). */
export const Card = Schema.Struct({
  id: Schema.String,
  desc: Schema.String,
  idBoard: Schema.String,
  idList: Schema.String,
  name: Schema.String
})
export type Card = typeof Card.Type

/** A card with its due date and states, as the due-date trigger reads it (`due` is ISO, or null). */
export const DatedCard = Schema.Struct({
  ...Card.fields,
  due: nullOr(Schema.String),
  dueComplete: falseOr,
  closed: falseOr
})
export type DatedCard = typeof DatedCard.Type

/** A card that is due: the five fields and its due date. */
export const DueCard = Schema.Struct({ ...Card.fields, due: Schema.String })

/** A card's five fields (`Card`), nothing nested. */
export const getPlainCard = (client: ProviderClient.ProviderClient, id: string) =>
  client.json({ method: "GET", path: path`/cards/${id}` }, Card)

/** Where to read cards: a list, else a board (open cards only, as Trello's default filter). */
export interface CardsOf {
  readonly idBoard?: string | undefined
  readonly idList?: string | undefined
}
const cardsPath = (where: CardsOf) =>
  where.idList !== undefined ? path`/lists/${where.idList}/cards` : path`/boards/${where.idBoard!}/cards`

export const datedCardsOf = (client: ProviderClient.ProviderClient, where: CardsOf) =>
  client.json({
    method: "GET",
    path: cardsPath(where),
    query: { fields: "name,desc,idBoard,idList,due,dueComplete,closed" }
  }, Schema.Array(DatedCard))

/** Archives a card: `closed=true` in the query, as the spec declares it; a PUT, so retried on a 429. */
export const archiveCard = (client: ProviderClient.ProviderClient, id: string) =>
  client.json({ method: "PUT", path: path`/cards/${id}`, query: { closed: true } }, Named)

/** A label on a card (a name left out is empty, as Trello has an unnamed label's; a colour left out is none). */
export const CardLabel = Schema.Struct({
  id: Schema.String,
  name: Schema.optionalWith(Schema.String, { default: () => "" }),
  color: nullOr(Schema.String)
})

/**
 * A card with its place, dates, people and labels: what the card actions output. The seed's
 * five fields are required; the rest take their defaults when Trello leaves them out: no
 * dates (`due`, `start`: null), open and not done (`closed`, `dueComplete`: false), no
 * members, labels or votes (`[]`); `idShort`, `pos`, `dateLastActivity`, `url` and
 * `shortUrl` are then absent.
 */
export const CardDetails = Schema.Struct({
  ...Card.fields,
  idShort: Schema.optional(Schema.Number),
  pos: Schema.optional(Schema.Number),
  closed: falseOr,
  due: nullOr(Schema.String),
  start: nullOr(Schema.String),
  dueComplete: falseOr,
  idMembers: listOr(Schema.String),
  idLabels: listOr(Schema.String),
  labels: listOr(CardLabel),
  idMembersVoted: listOr(Schema.String),
  dateLastActivity: Schema.optional(Schema.String),
  url: Schema.optional(Schema.String),
  shortUrl: Schema.optional(Schema.String)
})
export type CardDetails = typeof CardDetails.Type

/** A member as the card's nested resources give it (the default member fields; a name left out is empty). */
export const CardMember = Schema.Struct({
  id: Schema.String,
  username: Schema.optionalWith(Schema.String, { default: () => "" }),
  fullName: Schema.optionalWith(Schema.String, { default: () => "" })
})

/** A card with what was asked of its nested resources. */
export const CardWithNested = Schema.Struct({
  ...CardDetails.fields,
  attachments: Schema.optional(Schema.Array(Attachment)),
  checklists: Schema.optional(Schema.Array(Checklist)),
  customFieldItems: Schema.optional(Schema.Array(CustomFieldItem)),
  members: Schema.optional(Schema.Array(CardMember))
})
export type CardWithNested = typeof CardWithNested.Type

export interface Nested {
  readonly attachments?: boolean | undefined
  readonly checklists?: boolean | undefined
  readonly customFieldItems?: boolean | undefined
  readonly members?: boolean | undefined
}

/** `GET /cards/{id}` with Trello's nested-resource parameters for what is asked (each left out otherwise). */
export const getCard = (client: ProviderClient.ProviderClient, id: string, nested: Nested = {}) =>
  client.json({
    method: "GET",
    path: path`/cards/${id}`,
    query: {
      attachments: nested.attachments === true ? true : undefined,
      checklists: nested.checklists === true ? "all" : undefined,
      customFieldItems: nested.customFieldItems === true ? true : undefined,
      members: nested.members === true ? true : undefined
    }
  }, CardWithNested)

/** A position: `top`, `bottom`, or a positive number. */
export type Position = "top" | "bottom" | number

const commaList = (ids: ReadonlyArray<string> | undefined) => ids === undefined ? undefined : ids.join(",")

export interface NewCard {
  readonly idList: string
  readonly name?: string | undefined
  readonly desc?: string | undefined
  readonly pos?: Position | undefined
  readonly start?: string | undefined
  readonly due?: string | undefined
  readonly dueComplete?: boolean | undefined
  readonly idMembers?: ReadonlyArray<string> | undefined
  readonly idLabels?: ReadonlyArray<string> | undefined
  readonly urlSource?: string | undefined
  readonly idCardSource?: string | undefined
  readonly keepFromSource?: ReadonlyArray<string> | undefined
}

/** `POST /cards`, in a form body (a 16384-character description fits no URL); ids comma-separated, as Trello reads them. */
export const createCard = (client: ProviderClient.ProviderClient, card: NewCard) =>
  client.json({
    method: "POST",
    path: "/cards",
    // Each field named: a spread that then gains keys cost several microseconds a call on a cold path.
    body: ProviderRequest.formBody({
      idList: card.idList,
      name: card.name,
      desc: card.desc,
      pos: card.pos,
      start: card.start,
      due: card.due,
      dueComplete: card.dueComplete,
      idMembers: commaList(card.idMembers),
      idLabels: commaList(card.idLabels),
      urlSource: card.urlSource,
      idCardSource: card.idCardSource,
      keepFromSource: commaList(card.keepFromSource)
    })
  }, CardDetails)

/** A card's cover: a colour, or an attachment (an image), at a size and brightness. */
export interface Cover {
  readonly color?: string | null | undefined
  readonly idAttachment?: string | null | undefined
  readonly size?: "normal" | "full" | undefined
  readonly brightness?: "dark" | "light" | undefined
}

export interface CardChanges {
  readonly name?: string | undefined
  readonly desc?: string | undefined
  readonly closed?: boolean | undefined
  readonly idList?: string | undefined
  readonly idBoard?: string | undefined
  readonly pos?: Position | undefined
  /** null clears a date. */
  readonly due?: string | null | undefined
  readonly start?: string | null | undefined
  readonly dueComplete?: boolean | undefined
  readonly idMembers?: ReadonlyArray<string> | undefined
  readonly idLabels?: ReadonlyArray<string> | undefined
  readonly cover?: Cover | undefined
}

/**
 * `PUT /cards/{id}` with a JSON body (Trello takes one for the query parameters): the cover is
 * an object, and null clears a date. An empty list of ids clears the members or labels.
 */
export const updateCard = (client: ProviderClient.ProviderClient, id: string, changes: CardChanges) =>
  client.json({
    method: "PUT",
    path: path`/cards/${id}`,
    body: ProviderRequest.jsonBody(Object.fromEntries(Object.entries({
      ...changes,
      idMembers: commaList(changes.idMembers),
      idLabels: commaList(changes.idLabels)
    }).filter(([, value]) => value !== undefined)))
  }, CardDetails)

export const deleteCard = (client: ProviderClient.ProviderClient, id: string) =>
  client.void({ method: "DELETE", path: path`/cards/${id}` })

/**
 * The card of this name in the list created at or after `since` (to the second, as Trello's ids
 * tell it), the newest if several: what a `createCard` cut short may have created. A card with
 * no name cannot be told from others: that is an `InvalidInput`, and the step stays unknown.
 */
export const findCreatedCard = (client: ProviderClient.ProviderClient, where: { readonly idList: string; readonly name: string | undefined }, since: Date) => {
  const { idList, name } = where
  if (name === undefined) {
    return Effect.fail(ConnectorError.invalidInput([{ path: "name", message: "a card created without a name cannot be found again" }]))
  }
  return Effect.map(listCards(client, idList), (cards) => newestCreatedSince(cards, name, since))
}

/** A list's cards (open ones: the list's default filter), in their order; Trello answers them all at once. */
export const listCards = (client: ProviderClient.ProviderClient, idList: string) =>
  client.json({ method: "GET", path: path`/lists/${idList}/cards` }, Schema.Array(CardDetails))

export type BoardCardFilter = "open" | "closed" | "all"

/** A board's cards by state; Trello answers them all at once. */
export const boardCards = (client: ProviderClient.ProviderClient, idBoard: string, filter: BoardCardFilter) =>
  client.json({ method: "GET", path: path`/boards/${idBoard}/cards/${filter}` }, Schema.Array(CardDetails))

/** Trello's pages of a card's actions: 50 each, pages 0 to 19. */
export const cardActionsPage = { size: 50, last: 19 } as const

/** A card's actions of these types, newest first, page after page (`page` counts from 0), read as `schema`. */
export const cardActions = <A, I>(
  client: ProviderClient.ProviderClient,
  id: string,
  filter: string,
  maxItems: number,
  schema: Schema.Schema<A, I>
) =>
  Pagination.pageNumber(
    { pageSize: cardActionsPage.size, maxItems, maxPages: cardActionsPage.last + 1 },
    (page) =>
      Effect.map(
        client.json({ method: "GET", path: path`/cards/${id}/actions`, query: { filter, page: page - 1 } }, Schema.Array(schema)),
        (items) => ({ items })
      )
  )

// --- votes -------------------------------------------------------------------------------

export const vote = (client: ProviderClient.ProviderClient, idCard: string, idMember: string) =>
  client.void({ method: "POST", path: path`/cards/${idCard}/membersVoted`, body: ProviderRequest.formBody({ value: idMember }) })

export const removeVote = (client: ProviderClient.ProviderClient, idCard: string, idMember: string) =>
  client.void({ method: "DELETE", path: path`/cards/${idCard}/membersVoted/${idMember}` })

export const voters = (client: ProviderClient.ProviderClient, idCard: string) =>
  client.json({ method: "GET", path: path`/cards/${idCard}/membersVoted`, query: { fields: "username,fullName" } }, Schema.Array(CardMember))
