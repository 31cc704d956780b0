/**
 * The token's member's notifications (Trello REST API 1): listed newest first by
 * `GET /members/me/notifications` (types in `filter`, read state in `read_filter`, at most 1000
 * a request, the next page `before` the last id), one marked read or unread with
 * `PUT /notifications/{id}?unread=`, all marked read with `POST /notifications/all/read`.
 * Trello sends no webhook for a notification: the trigger polls.
 */
import { Pagination, type ProviderClient, ProviderRequest } from "@x/core"
import * as Schema from "effect/Schema"
import { falseOr, nullOr } from "./shared.js"
import { MemberCreator } from "./activity.js"

const { path } = ProviderRequest

/**
 * The notification types a member is told of (Trello's "Notification Types" guide; the document
 * types `type` with one of them only): what the list and the trigger may filter by.
 */
export const types = [
  "mentionedOnCard", "addedToCard", "removedFromCard", "commentCard", "changeCard", "cardDueSoon", "createdCard",
  "addedAttachmentToCard", "addedMemberToCard", "removedMemberFromCard", "updateCheckItemStateOnCard",
  "addedToBoard", "removedFromBoard", "invitedToBoard", "addAdminToBoard", "makeAdminOfBoard", "closeBoard",
  "addedToOrganization", "removedFromOrganization", "invitedToOrganization", "addAdminToOrganization", "makeAdminOfOrganization",
  "declinedInvitationToBoard", "declinedInvitationToOrganization", "memberJoinedTrello"
] as const
export type Type = typeof types[number]

/** "When I am mentioned or assigned": the trigger's types unless others are chosen. */
export const mentionedOrAssigned: ReadonlyArray<Type> = ["mentionedOnCard", "addedToCard"]

/**
 * A notification: its id and type identify it, so they are required; `unread` left out is
 * `false`, the rest `null` (or `{}` for its data: the card, board and text it is about).
 */
export const Notification = Schema.Struct({
  id: Schema.String,
  type: Schema.String,
  unread: falseOr,
  date: Schema.optional(Schema.String),
  dateRead: nullOr(Schema.String),
  idMemberCreator: nullOr(Schema.String),
  idAction: nullOr(Schema.String),
  data: Schema.optionalWith(Schema.Record({ key: Schema.String, value: Schema.Unknown }), { default: () => ({}) }),
  memberCreator: nullOr(MemberCreator)
})
export type Notification = typeof Notification.Type

/** The board a notification is about, if it names one. */
export const boardOf = (notification: Notification): string | undefined => {
  const board = notification.data["board"] as { readonly id?: unknown } | undefined
  return typeof board?.id === "string" ? board.id : undefined
}

/** Trello's largest page of notifications. */
export const pageSize = 1000

/**
 * The member's notifications, newest first, as a stream up to `maxItems`: of these types (else
 * all), unread only if asked, newer than the notification `since` if given.
 */
export const mine = (
  client: ProviderClient.ProviderClient,
  query: { types?: ReadonlyArray<string> | undefined; onlyUnread?: boolean | undefined; since?: string | undefined },
  maxItems: number
) =>
  Pagination.keyset(
    { pageSize, maxItems },
    (before, limit) =>
      client.json({
        method: "GET",
        path: "/members/me/notifications",
        query: {
          filter: query.types === undefined || query.types.length === 0 ? undefined : query.types.join(","),
          read_filter: query.onlyUnread === true ? "unread" : undefined,
          since: query.since,
          before,
          limit
        }
      }, Schema.Array(Notification)),
    (notification) => notification.id
  )

/** Marks a notification read (`unread=false`) or unread again. */
export const mark = (client: ProviderClient.ProviderClient, id: string, read: boolean) =>
  client.json({ method: "PUT", path: path`/notifications/${id}`, query: { unread: !read } }, Notification)

/** Marks every notification of the member read. */
export const markAllRead = (client: ProviderClient.ProviderClient) =>
  client.void({ method: "POST", path: "/notifications/all/read" })
