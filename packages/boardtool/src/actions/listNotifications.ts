import { Action, Pagination, Property } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Notifications from "../api/notifications.js"

/** Trello's own default page: 50 notifications. */
const defaultLimit = 50

export const listNotifications = Action.make({
  name: "listNotifications",
  title: "List Notifications",
  impact: "read",
  description: "Lists your notifications (mentions, cards you were added to, comments …), newest first, across pages up to the limit.",
  props: {
    types: Property.array({
      title: "Types",
      description: "Only these notification types (else: all).",
      minItems: 1,
      items: Property.string({ title: "Type", required: true, choices: Notifications.types.map((value) => ({ label: value, value })) })
    }),
    onlyUnread: Property.boolean({ title: "Only unread", defaultValue: false }),
    limit: Pagination.limit({ description: "The most notifications returned (Trello pages by 1000).", defaultValue: defaultLimit })
  },
  output: Schema.Struct({ notifications: Schema.Array(Notifications.Notification) }),
  run: ({ limit, ...query }, { client }) =>
    Effect.map(Pagination.collect(Notifications.mine(client, query, limit ?? defaultLimit)), (notifications) => ({ notifications }))
})
