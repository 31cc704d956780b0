import { Action } from "@x/core"
import * as Notifications from "../api/notifications.js"

export const markAllNotificationsRead = Action.make({
  name: "markAllNotificationsRead",
  title: "Mark All Notifications Read",
  impact: "write", idempotent: true,
  description: "Marks every one of your notifications read.",
  props: {},
  run: (_, { client }) => Notifications.markAllRead(client)
})
