/** Dynamic options of the members, notifications, attachments and custom fields actions (label = name, value = id). */
import { Choice, DynamicOptions, Pagination } from "@x/core"
import * as Effect from "effect/Effect"
import * as Api from "../api/attachments.js"
import * as CustomFields from "../api/customFields.js"
import * as Members from "../api/members.js"
import * as Notifications from "../api/notifications.js"


/** A board's members, as "Full Name (@username)". */
export const boardMembers = DynamicOptions.make(["idBoard"], ({ client, params }) =>
  Effect.map(Members.boardMembers(client, DynamicOptions.dependency(params, "idBoard")), (members) =>
    Choice.fromRecords(members, (m) => `${m.fullName} (@${m.username})`, (m) => m.id)))

export const attachments = DynamicOptions.make(["idCard"], ({ client, params }) =>
  Effect.map(Api.listAttachments(client, DynamicOptions.dependency(params, "idCard")), (items) => Choice.fromRecords(items, (a) => a.name, (a) => a.id)))

const fieldChoices = (fields: ReadonlyArray<CustomFields.CustomField>) =>
  Choice.fromRecords(fields, (f) => `${f.name} (${f.type})`, (f) => f.id)

/** A board's custom fields, as "Name (kind)". */
export const customFields = DynamicOptions.make(["idBoard"], ({ client, params }) =>
  Effect.map(CustomFields.boardCustomFields(client, DynamicOptions.dependency(params, "idBoard")), fieldChoices))

/** A board's list (dropdown) fields only: the ones with options. */
export const listCustomFields = DynamicOptions.make(["idBoard"], ({ client, params }) =>
  Effect.map(CustomFields.boardCustomFields(client, DynamicOptions.dependency(params, "idBoard")), (fields) => fieldChoices(fields.filter((f) => f.type === "list"))))

/** The member's latest unread notifications (up to 50), as "type: card or board name". */
export const unreadNotifications = DynamicOptions.make([], ({ client }) =>
  Effect.map(Pagination.collect(Notifications.mine(client, { onlyUnread: true }, 50)), (notifications) =>
    Choice.fromRecords(notifications, (n) => {
      const about = (n.data["card"] ?? n.data["board"]) as { readonly name?: unknown } | undefined
      return typeof about?.name === "string" ? `${n.type}: ${about.name}` : n.type
    }, (n) => n.id)))
