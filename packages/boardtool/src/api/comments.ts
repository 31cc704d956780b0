/** Comments on cards (Trello's commentCard actions) and reactions to them: wire calls and records. */
import { type ProviderClient, ProviderRequest } from "@x/core"
import * as Schema from "effect/Schema"
import { BoardAction } from "./activity.js"
import { cardActions, cardActionsPage } from "./cards.js"

const { path } = ProviderRequest

/** A comment: the commentCard action, its text and the card it is on (each absent when Trello leaves it out). */
export const Comment = Schema.Struct({
  ...BoardAction.fields,
  data: Schema.optionalWith(
    Schema.Struct({
      text: Schema.optional(Schema.String),
      card: Schema.optional(Schema.Struct({ id: Schema.String, name: Schema.optional(Schema.String) }))
    }),
    { default: () => ({}) }
  )
})
export type Comment = typeof Comment.Type

/** A reaction to a comment: who reacted, with which emoji (each absent when Trello leaves it out). */
export const Reaction = Schema.Struct({
  id: Schema.String,
  idMember: Schema.optional(Schema.String),
  idModel: Schema.optional(Schema.String),
  emoji: Schema.optional(Schema.Struct({
    unified: Schema.optional(Schema.String),
    native: Schema.optional(Schema.String),
    shortName: Schema.optional(Schema.String),
    name: Schema.optional(Schema.String)
  }))
})
export type Reaction = typeof Reaction.Type

// Text goes in a form body: a comment takes 16384 characters, more than a URL carries.
export const addComment = (client: ProviderClient.ProviderClient, idCard: string, text: string) =>
  client.json({ method: "POST", path: path`/cards/${idCard}/actions/comments`, body: ProviderRequest.formBody({ text }) }, Comment)

export const updateComment = (client: ProviderClient.ProviderClient, idCard: string, idAction: string, text: string) =>
  client.json({
    method: "PUT",
    path: path`/cards/${idCard}/actions/${idAction}/comments`,
    body: ProviderRequest.formBody({ text })
  }, Comment)

export const deleteComment = (client: ProviderClient.ProviderClient, idCard: string, idAction: string) =>
  client.void({ method: "DELETE", path: path`/cards/${idCard}/actions/${idAction}/comments` })

/** Trello pages a card's actions by `page` (0 to 19), 50 an answer. */
export const commentsPageSize = cardActionsPage.size

/** A card's comments, newest first, as a stream up to `maxItems`. */
export const cardComments = (client: ProviderClient.ProviderClient, idCard: string, maxItems: number) =>
  cardActions(client, idCard, "commentCard", maxItems, Comment)

/** Reacts to a comment with an emoji, by its short name (`thumbsup`) or its unified code (`1F44D`). */
export const addReaction = (
  client: ProviderClient.ProviderClient,
  idAction: string,
  emoji: { shortName?: string | undefined; unified?: string | undefined }
) =>
  client.json({
    method: "POST",
    path: path`/actions/${idAction}/reactions`,
    body: ProviderRequest.jsonBody(emoji.shortName !== undefined ? { shortName: emoji.shortName } : { unified: emoji.unified })
  }, Reaction)
