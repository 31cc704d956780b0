/**
 * Members (Trello REST API 1): the token's member, a member, member search, a board's members
 * and their roles, a card's members. What Trello answers, decoded with Schema.
 */
import { ProviderClient, ProviderRequest } from "@x/core"
import * as Schema from "effect/Schema"

const { path } = ProviderRequest
const nullable = <A, I>(schema: Schema.Schema<A, I>) => Schema.optionalWith(Schema.NullOr(schema), { default: () => null })

/** A member: a board's member list carries only id, fullName and username (each empty when left out); the rest null when Trello does not send it. */
export const Member = Schema.Struct({
  id: Schema.String,
  username: Schema.optionalWith(Schema.String, { default: () => "" }),
  fullName: Schema.optionalWith(Schema.String, { default: () => "" }),
  initials: nullable(Schema.String),
  avatarUrl: nullable(Schema.String),
  url: nullable(Schema.String)
})
export type Member = typeof Member.Type

/** The token's member: a member, with their email (Trello shows it to its owner only). */
export const Me = Schema.Struct({ ...Member.fields, email: nullable(Schema.String) })

export const roles = ["admin", "normal", "observer"] as const
export type Role = typeof roles[number]

/**
 * A board's members and their roles, as Trello answers a change of them (none `[]` when left
 * out). A membership names its member, so `idMember` is required; a role left out is absent.
 */
export const BoardMembers = Schema.Struct({
  id: Schema.String,
  members: Schema.optionalWith(Schema.Array(Member), { default: () => [] }),
  memberships: Schema.optionalWith(
    Schema.Array(Schema.Struct({
      id: Schema.String,
      idMember: Schema.String,
      memberType: Schema.optional(Schema.String),
      unconfirmed: Schema.optionalWith(Schema.Boolean, { default: () => false })
    })),
    { default: () => [] }
  )
})

const memberFields = "username,fullName,initials,avatarUrl,url"

export const me = (client: ProviderClient.ProviderClient) =>
  client.json({ method: "GET", path: "/members/me", query: { fields: `${memberFields},email` } }, Me)

/** A member by id or username. */
export const member = (client: ProviderClient.ProviderClient, idOrUsername: string) =>
  client.json({ method: "GET", path: path`/members/${idOrUsername}`, query: { fields: memberFields } }, Member)

/** Members whose name, username or email matches; at most 20 (Trello's cap), optionally those of a board. */
export const searchMembers = (
  client: ProviderClient.ProviderClient,
  search: { query: string; limit?: number | undefined; idBoard?: string | undefined }
) => client.json({ method: "GET", path: "/search/members", query: search }, Schema.Array(Member))

export const boardMembers = (client: ProviderClient.ProviderClient, idBoard: string) =>
  client.json({ method: "GET", path: path`/boards/${idBoard}/members` }, Schema.Array(Member))

/** Adds a Trello member to a board with a role, or changes their role. */
export const addBoardMember = (client: ProviderClient.ProviderClient, idBoard: string, idMember: string, type: Role) =>
  client.json({ method: "PUT", path: path`/boards/${idBoard}/members/${idMember}`, query: { type } }, BoardMembers)

/** Invites someone by email (Trello makes an unconfirmed member when the address has none); the name goes in a JSON body. */
export const inviteBoardMember = (
  client: ProviderClient.ProviderClient,
  idBoard: string,
  invite: { email: string; type: Role; fullName?: string | undefined }
) =>
  client.json({
    method: "PUT",
    path: path`/boards/${idBoard}/members`,
    query: { email: invite.email, type: invite.type },
    ...(invite.fullName === undefined ? {} : { body: ProviderRequest.jsonBody({ fullName: invite.fullName }) })
  }, BoardMembers)

export const removeBoardMember = (client: ProviderClient.ProviderClient, idBoard: string, idMember: string) =>
  client.void({ method: "DELETE", path: path`/boards/${idBoard}/members/${idMember}` })

export const cardMembers = (client: ProviderClient.ProviderClient, idCard: string) =>
  client.json({ method: "GET", path: path`/cards/${idCard}/members`, query: { fields: memberFields } }, Schema.Array(Member))

/** Adds a board's member to a card; Trello answers the card's members. */
export const addCardMember = (client: ProviderClient.ProviderClient, idCard: string, idMember: string) =>
  client.json({ method: "POST", path: path`/cards/${idCard}/idMembers`, query: { value: idMember } }, Schema.Array(Member))

export const removeCardMember = (client: ProviderClient.ProviderClient, idCard: string, idMember: string) =>
  client.void({ method: "DELETE", path: path`/cards/${idCard}/idMembers/${idMember}` })
