/**
 * Boards and workspaces on the wire (REST API 1): create (from scratch or copied from a board),
 * read, update, close, reopen, delete, the member's boards and a workspace's boards by state,
 * and the member's workspaces.
 */
import { ProviderClient, ProviderRequest } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { falseOr, newestCreatedSince, nullOr } from "./shared.js"
import type { State } from "./lists.js"

const { path } = ProviderRequest

/** Who may see a board: its members, its workspace's members, or anyone. */
export const permissionLevels = ["private", "org", "public"] as const
export type PermissionLevel = (typeof permissionLevels)[number]

/**
 * A board as the component outputs it. Only `id` is required: a name or description left out
 * is empty, `closed` false, no workspace (`idOrganization`: null); `url`, `shortUrl` and
 * `prefs` are then absent.
 */
export const Board = Schema.Struct({
  id: Schema.String,
  name: Schema.optionalWith(Schema.String, { default: () => "" }),
  desc: Schema.optionalWith(Schema.String, { default: () => "" }),
  closed: falseOr,
  idOrganization: nullOr(Schema.String),
  url: Schema.optional(Schema.String),
  shortUrl: Schema.optional(Schema.String),
  prefs: Schema.optional(Schema.Struct({ permissionLevel: Schema.optional(Schema.String) }))
})
export type Board = typeof Board.Type

/** A workspace (Trello's organization); a name left out is empty. */
export const Workspace = Schema.Struct({
  id: Schema.String,
  name: Schema.optionalWith(Schema.String, { default: () => "" }),
  displayName: Schema.optionalWith(Schema.String, { default: () => "" })
})

export interface NewBoard {
  readonly name: string
  readonly desc?: string | undefined
  readonly defaultLists?: boolean | undefined
  readonly defaultLabels?: boolean | undefined
  readonly idOrganization?: string | undefined
  readonly permissionLevel?: PermissionLevel | undefined
  readonly idBoardSource?: string | undefined
  readonly keepCards?: boolean | undefined
}

// The spec declares these parameters in the query string; Trello reads them from a form body
// as well, and a body carries a 16384-character description that no URL would.
export const createBoard = (client: ProviderClient.ProviderClient, board: NewBoard) =>
  client.json({
    method: "POST",
    path: "/boards",
    body: ProviderRequest.formBody({
      name: board.name,
      desc: board.desc,
      defaultLists: board.defaultLists,
      defaultLabels: board.defaultLabels,
      idOrganization: board.idOrganization,
      prefs_permissionLevel: board.permissionLevel,
      idBoardSource: board.idBoardSource,
      // Only with a source board: "cards" copies its cards too, "none" its lists and labels only.
      keepFromSource: board.idBoardSource === undefined || board.keepCards === undefined
        ? undefined
        : board.keepCards ? "cards" : "none"
    })
  }, Board)

export const getBoard = (client: ProviderClient.ProviderClient, id: string) =>
  client.json({ method: "GET", path: path`/boards/${id}` }, Board)

export interface BoardChanges {
  readonly name?: string | undefined
  readonly desc?: string | undefined
  readonly closed?: boolean | undefined
  readonly idOrganization?: string | undefined
  readonly permissionLevel?: PermissionLevel | undefined
}

export const updateBoard = (client: ProviderClient.ProviderClient, id: string, changes: BoardChanges) =>
  client.json({
    method: "PUT",
    path: path`/boards/${id}`,
    body: ProviderRequest.formBody({
      name: changes.name,
      desc: changes.desc,
      closed: changes.closed,
      idOrganization: changes.idOrganization,
      "prefs/permissionLevel": changes.permissionLevel
    })
  }, Board)

/** Deletes a board for good (closing it is what can be undone). */
export const deleteBoard = (client: ProviderClient.ProviderClient, id: string) =>
  client.void({ method: "DELETE", path: path`/boards/${id}` })

/** The token member's boards; Trello answers them all at once (no paging). */
export const memberBoards = (client: ProviderClient.ProviderClient, filter: State) =>
  client.json({ method: "GET", path: "/members/me/boards", query: { filter } }, Schema.Array(Board))

/** The board named `name` the token's member created since `since` (a `createBoard` cut short), if any. */
export const findCreatedBoard = (client: ProviderClient.ProviderClient, name: string, since: Date) =>
  Effect.map(memberBoards(client, "open"), (boards) => newestCreatedSince(boards, name, since))

export const workspaceBoards = (client: ProviderClient.ProviderClient, idOrganization: string, filter: State) =>
  client.json({ method: "GET", path: path`/organizations/${idOrganization}/boards`, query: { filter } }, Schema.Array(Board))

/** The workspaces the token's member belongs to. */
export const myWorkspaces = (client: ProviderClient.ProviderClient) =>
  client.json({ method: "GET", path: "/members/me/organizations" }, Schema.Array(Workspace))
