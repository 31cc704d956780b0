/**
 * Profiles (`/profiles`, Browser Use v3): a browser's saved state (cookies, logins) that
 * sessions reuse; one per user of the caller's app, found again by its `userId`.
 */
import { Action, ConnectorError, Pagination, type ProviderClient, ProviderRequest } from "@x/core"
import * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { nullable } from "./shared.js"

const { path } = ProviderRequest

/** The longest name and user id the service accepts (ProfileCreateRequest). */
export const nameMaxLength = 100
export const userIdMaxLength = 255

const WireProfile = Schema.Struct({
  id: Schema.String,
  userId: nullable(Schema.String),
  name: nullable(Schema.String),
  lastUsedAt: nullable(Schema.String),
  createdAt: Schema.optional(Schema.String),
  updatedAt: Schema.optional(Schema.String),
  cookieDomains: nullable(Schema.Array(Schema.String))
})

/**
 * A profile (ProfileView): its name, the caller's user id, and the domains it has cookies for.
 * Left out, a name, user id or last use is null, the cookie domains `[]`, the dates absent.
 */
export const Profile = Schema.Struct({
  id: Schema.String,
  name: Schema.NullOr(Schema.String),
  userId: Schema.NullOr(Schema.String),
  lastUsedAt: Schema.NullOr(Schema.String),
  createdAt: Schema.optional(Schema.String),
  updatedAt: Schema.optional(Schema.String),
  cookieDomains: Schema.Array(Schema.String)
})
export type Profile = typeof Profile.Type

const toProfile = (wire: typeof WireProfile.Type): Profile => ({
  id: wire.id,
  name: wire.name ?? null,
  userId: wire.userId ?? null,
  lastUsedAt: wire.lastUsedAt ?? null,
  createdAt: wire.createdAt,
  updatedAt: wire.updatedAt,
  cookieDomains: wire.cookieDomains ?? []
})

export interface ProfileFields {
  readonly name?: string | undefined
  readonly userId?: string | undefined
}

/** Only the fields given: an update leaves the others as they are. */
const fieldsBody = (fields: ProfileFields) =>
  ProviderRequest.jsonBody({
    ...(fields.name !== undefined ? { name: fields.name } : {}),
    ...(fields.userId !== undefined ? { userId: fields.userId } : {})
  })

export const createProfile = (client: ProviderClient.ProviderClient, fields: ProfileFields) =>
  Effect.map(client.json({ method: "POST", path: "/profiles", body: fieldsBody(fields) }, WireProfile), toProfile)

export const getProfile = (client: ProviderClient.ProviderClient, profileId: string) =>
  Effect.map(client.json({ method: "GET", path: path`/profiles/${profileId}` }, WireProfile), toProfile)

export const updateProfile = (client: ProviderClient.ProviderClient, profileId: string, fields: ProfileFields) =>
  Effect.map(client.json({ method: "PATCH", path: path`/profiles/${profileId}`, body: fieldsBody(fields) }, WireProfile), toProfile)

/** Deletes a profile for good (204). */
export const deleteProfile = (client: ProviderClient.ProviderClient, profileId: string) =>
  client.void({ method: "DELETE", path: path`/profiles/${profileId}` })

const ProfilePage = Schema.Struct({
  items: Schema.Array(WireProfile),
  totalItems: Schema.Number,
  pageNumber: Schema.Number,
  pageSize: Schema.Number
})

/**
 * The profiles, as a stream: paged by `pageNumber`/`pageSize`, 100 at most; `search` matches
 * their name or user id.
 */
export const profiles = (
  client: ProviderClient.ProviderClient,
  options: { readonly search?: string | undefined; readonly maxItems?: number | undefined } = {}
) =>
  Pagination.pageNumber({ pageSize: 100, maxItems: options.maxItems }, (pageNumber, pageSize) =>
    Effect.map(
      client.json({ method: "GET", path: "/profiles", query: { pageNumber, pageSize, query: options.search } }, ProfilePage),
      (r) => ({ items: r.items.map(toProfile), total: r.totalItems })
    ))

/**
 * The profile a create cut short may have made (an action's `reconcile`): of the profiles the
 * service finds by its name (or user id), the newest with exactly that name and user id created
 * at or after `since`, to the second.
 */
export const findCreatedProfile = (
  client: ProviderClient.ProviderClient,
  fields: ProfileFields,
  since: Date
): Effect.Effect<Option.Option<Profile>, ConnectorError.ConnectorError> => {
  const search = fields.name ?? fields.userId
  if (search === undefined) {
    return Effect.fail(ConnectorError.invalidInput([{ path: "name", message: "a profile created without a name or user id cannot be found again" }]))
  }
  return Effect.map(Stream.runCollect(profiles(client, { search, maxItems: 100 })), (found) =>
    Action.newestCreatedSince(
      [...found].filter((profile) => profile.name === (fields.name ?? null) && profile.userId === (fields.userId ?? null)),
      // A profile without its creation date cannot be placed after `since`: never the one.
      (profile) => profile.createdAt === undefined ? Number.NEGATIVE_INFINITY : Date.parse(profile.createdAt),
      { since }
    ))
}
