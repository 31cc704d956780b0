/**
 * Site users (memberships) and access groups: listed (every page), read, invited, deleted.
 *
 * These two lists page as the others do (`offset`, `limit` ≤ 100) but answer their total at
 * the top (`{users, count, limit, offset, total}`), not in a `pagination` object. A user's
 * `data` is flat (`{name, email, accept-privacy, accept-communications, …custom fields}`), as
 * the document's examples and Webflow's answers are; its schema nests it in a second `data`.
 */
import { Pagination, type ProviderClient, ProviderRequest } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { pageSize } from "../api.js"

const { path } = ProviderRequest

export const statuses = ["invited", "verified", "unverified"] as const

/**
 * A site user: its status, access groups, and its data (basic info and custom fields). Only
 * `id` is required: not verified (`false`), no access groups (`[]`) and no data (`{}`) when left
 * out; `status` and the dates are then absent.
 */
export const User = Schema.Struct({
  id: Schema.String,
  isEmailVerified: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  status: Schema.optional(Schema.Literal(...statuses)),
  createdOn: Schema.optional(Schema.String),
  lastUpdated: Schema.optional(Schema.String),
  invitedOn: Schema.optional(Schema.String),
  lastLogin: Schema.optional(Schema.String),
  /** Its access groups: `admin` (given by the API or the Designer) or `ecommerce` (bought). */
  accessGroups: Schema.optionalWith(Schema.Array(Schema.Struct({ slug: Schema.String, type: Schema.optional(Schema.String) })), { default: () => [] }),
  data: Schema.optionalWith(Schema.Struct(
    {
      name: Schema.optional(Schema.String),
      email: Schema.optional(Schema.String),
      "accept-privacy": Schema.optional(Schema.Boolean),
      "accept-communications": Schema.optional(Schema.Boolean)
    },
    Schema.Record({ key: Schema.String, value: Schema.Unknown })
  ), { default: () => ({}) })
})
export type User = typeof User.Type

/** An access group: its `slug` names it in an invitation. */
export const AccessGroup = Schema.Struct({
  id: Schema.String,
  name: Schema.optional(Schema.String),
  slug: Schema.String,
  shortId: Schema.optional(Schema.String),
  createdOn: Schema.optional(Schema.String)
})
export type AccessGroup = typeof AccessGroup.Type

/** The orders `GET /sites/{id}/users` takes: by a key, `-` first for descending. */
export const sorts = [
  "CreatedOn", "-CreatedOn", "Email", "-Email", "Status", "-Status", "LastLogin", "-LastLogin", "UpdatedOn", "-UpdatedOn"
] as const
export type Sort = typeof sorts[number]

/** A list whose total is at the top of the answer: every page up to `maxItems`. */
const pagedAtTop = <A, I>(
  client: ProviderClient.ProviderClient,
  list: { readonly path: string; readonly key: string; readonly sort?: string | undefined; readonly maxItems?: number | undefined },
  record: Schema.Schema<A, I>
) => {
  const answer = Schema.Struct({ [list.key]: Schema.Array(record), total: Schema.optional(Schema.Number) }) as unknown as Schema.Schema<
    { readonly [key: string]: ReadonlyArray<A> } & { readonly total?: number | undefined },
    unknown
  >
  return Pagination.offset({ pageSize, maxItems: list.maxItems }, (offset, limit) =>
    Effect.map(
      client.json({ method: "GET", path: list.path, query: { offset, limit, sort: list.sort } }, answer),
      (r) => ({ items: r[list.key] as ReadonlyArray<A>, total: r.total })
    ))
}

/** `GET /sites/{id}/users?sort`, every page up to `maxItems`. */
export const users = (client: ProviderClient.ProviderClient, siteId: string, sort?: Sort, maxItems?: number) =>
  pagedAtTop(client, { path: path`/sites/${siteId}/users`, key: "users", sort, maxItems }, User)

/** `GET /sites/{id}/accessgroups`, every page. */
export const accessGroups = (client: ProviderClient.ProviderClient, siteId: string) =>
  pagedAtTop(client, { path: path`/sites/${siteId}/accessgroups`, key: "accessGroups" }, AccessGroup)

export const getUser = (client: ProviderClient.ProviderClient, siteId: string, userId: string) =>
  client.json({ method: "GET", path: path`/sites/${siteId}/users/${userId}` }, User)

/** `POST /sites/{id}/users/invite` `{email, accessGroups}`: Webflow emails the invitation. */
export const inviteUser = (
  client: ProviderClient.ProviderClient,
  invite: { readonly siteId: string; readonly email: string; readonly accessGroups?: ReadonlyArray<string> | undefined }
) =>
  client.json({
    method: "POST",
    path: path`/sites/${invite.siteId}/users/invite`,
    body: ProviderRequest.jsonBody({ email: invite.email, ...(invite.accessGroups === undefined ? {} : { accessGroups: invite.accessGroups }) })
  }, User)

/** `DELETE /sites/{id}/users/{userId}` (204). */
export const deleteUser = (client: ProviderClient.ProviderClient, siteId: string, userId: string) =>
  client.void({ method: "DELETE", path: path`/sites/${siteId}/users/${userId}` })
