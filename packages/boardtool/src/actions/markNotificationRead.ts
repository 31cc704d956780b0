import { Action, Property } from "@x/core"
import * as Notifications from "../api/notifications.js"
import * as MemberOptions from "../options/members.js"
import * as Props from "../props/shared.js"

export const markNotificationRead = Action.make({
  name: "markNotificationRead",
  title: "Mark Notification Read",
  impact: "write", idempotent: true,
  description: "Marks one of your notifications read (or unread again).",
  props: {
    idNotification: Props.trelloId({ title: "Notification", required: true, dynamicOptions: MemberOptions.unreadNotifications }),
    read: Property.boolean({ title: "Read", description: "false marks it unread again.", defaultValue: true })
  },
  output: Notifications.Notification,
  run: ({ idNotification, read }, { client }) => Notifications.mark(client, idNotification, read ?? true)
})
