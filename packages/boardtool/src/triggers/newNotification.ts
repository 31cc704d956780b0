import { Pagination, Property, Trigger } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Shared from "../api/shared.js"
import * as Notifications from "../api/notifications.js"
import { connection } from "../connection.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"
import { same } from "./activity.js"

/** The most notifications one poll reads: one of Trello's pages. */
const perPoll = Notifications.pageSize

type Params = {
  readonly types?: ReadonlyArray<string> | undefined
  readonly onlyUnread?: boolean | undefined
  readonly idBoard?: string | undefined
}
const queryOf = (params: Params, since?: string) => ({ types: params.types ?? Notifications.mentionedOrAssigned, onlyUnread: params.onlyUnread, since })
const onBoard = (params: Params) => (n: Notifications.Notification) => params.idBoard === undefined || same(Notifications.boardOf(n), params.idBoard)

export const newNotification = Trigger.polling({
  name: "newNotification",
  title: "New Notification",
  description: "Fires once for each new notification of yours of the chosen types: by default when you are mentioned on a card or added to one " +
    "(polled: Trello sends no webhook for notifications).",
  connection,
  props: {
    types: Property.array({
      title: "Types",
      description: "The notification types that fire (default: mentionedOnCard and addedToCard).",
      minItems: 1,
      items: Property.string({ title: "Type", required: true, choices: Notifications.types.map((value) => ({ label: value, value })) }),
      defaultValue: Notifications.mentionedOrAssigned
    }),
    onlyUnread: Property.boolean({ title: "Only unread", description: "Skip the ones already read when polled.", defaultValue: false }),
    idBoard: Props.trelloId({ title: "Board", description: "Only notifications about this board (else: any).", dynamicOptions: BoardOptions.boards })
  },
  output: Notifications.Notification,
  interval: "1 minute",
  // The newest notification seen (the next poll asks for those `since` it, as Trello's ids grow
  // with time), and the ids the last poll read: an id seen is not an event again.
  cursor: Schema.Struct({ newest: Schema.NullOr(Schema.String), seen: Schema.Array(Schema.String) }),

  poll: ({ client, cursor, params }) =>
    Effect.gen(function*() {
      // The baseline needs only the newest one: nothing before it fires.
      const read = yield* Pagination.collect(Notifications.mine(client, queryOf(params, cursor?.newest ?? undefined), cursor === undefined ? 1 : perPoll))
      const seen = new Set(cursor?.seen)
      const events = cursor === undefined
        ? []
        : read.filter((n) => !seen.has(n.id) && onBoard(params)(n)).reverse().map((n) => ({ id: n.id, output: n }))
      const newest = Shared.newestFirst(read)[0]?.id ?? cursor?.newest ?? null
      return { events, cursor: { newest, seen: read.length > 0 ? read.map((n) => n.id) : cursor?.seen ?? [] } }
    }),

  // The latest notifications of the chosen types (among the newest 50).
  sample: ({ client, params }) =>
    Effect.map(Pagination.collect(Notifications.mine(client, queryOf(params), 50)), (read) =>
      read.filter(onBoard(params)).slice(0, Shared.sampleSize).map((n) => ({ id: n.id, output: n })))
})
