/** Dynamic options of the members, attachments and custom fields actions (label = name, value = id). */
import { Choice, DynamicOptions } from "@x/core"
import * as Effect from "effect/Effect"
import * as Api from "../api/attachments.js"
import * as CustomFields from "../api/customFields.js"
import * as Members from "../api/members.js"

const param = (params: Readonly<Record<string, unknown>>, name: string) => String(params[name])

/** A board's members, as "Full Name (@username)". */
export const boardMembers = DynamicOptions.make(["idBoard"], ({ client, params }) =>
  Effect.map(Members.boardMembers(client, param(params, "idBoard")), (members) =>
    Choice.fromRecords(members, (m) => `${m.fullName} (@${m.username})`, (m) => m.id)))

export const attachments = DynamicOptions.make(["idCard"], ({ client, params }) =>
  Effect.map(Api.listAttachments(client, param(params, "idCard")), (items) => Choice.fromRecords(items, (a) => a.name, (a) => a.id)))

/** A board's custom fields, as "Name (kind)". */
export const customFields = DynamicOptions.make(["idBoard"], ({ client, params }) =>
  Effect.map(CustomFields.boardCustomFields(client, param(params, "idBoard")), (fields) =>
    Choice.fromRecords(fields, (f) => `${f.name} (${f.type})`, (f) => f.id)))
