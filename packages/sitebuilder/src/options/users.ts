/** Dynamic options of the site users actions: a site's users and its access groups (every page). */
import { Choice, DynamicOptions, Pagination } from "@x/core"
import * as Effect from "effect/Effect"
import * as Users from "../api/users.js"

const param = (params: Readonly<Record<string, unknown>>, name: string) => String(params[name])

/** A site's users, as "Name <email>" (or the email alone). */
export const users = DynamicOptions.make(["siteId"], ({ client, params }) =>
  Effect.map(Pagination.collect(Users.users(client, param(params, "siteId"))), (items) =>
    Choice.fromRecords(items, (u) => {
      const email = u.data.email ?? u.id
      return u.data.name === undefined ? email : `${u.data.name} <${email}>`
    }, (u) => u.id)))

/** A site's access groups, by name; the value is the slug an invitation names. */
export const accessGroups = DynamicOptions.make(["siteId"], ({ client, params }) =>
  Effect.map(Pagination.collect(Users.accessGroups(client, param(params, "siteId"))), (items) =>
    Choice.fromRecords(items, (g) => g.name ?? g.slug, (g) => g.slug)))
