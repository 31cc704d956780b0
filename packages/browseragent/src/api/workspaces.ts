/**
 * Browser Use v3's workspaces and their files on the wire (`/workspaces…`): the workspace, its
 * size, its files listed by cursor, uploaded through the presigned PUT URLs the API hands out
 * (several in one declaration), downloaded from presigned GET URLs, deleted.
 */
import { ConnectorError, FileInput, Files, Pagination, ProviderClient, ProviderRequest } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

const { path } = ProviderRequest
const nullable = <A, I>(schema: Schema.Schema<A, I>) => Schema.optional(Schema.NullOr(schema))
const optional = Schema.optional

/** A workspace: persistent file storage shared by sessions (WorkspaceView). */
export const Workspace = Schema.Struct({
  id: Schema.String,
  name: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type Workspace = typeof Workspace.Type

const WireWorkspace = Schema.Struct({ id: Schema.String, name: nullable(Schema.String), createdAt: Schema.String, updatedAt: Schema.String })
const toWorkspace = (wire: typeof WireWorkspace.Type): Workspace => ({ ...wire, name: wire.name ?? null })

export const createWorkspace = (client: ProviderClient.ProviderClient, name: string | undefined) =>
  Effect.map(
    client.json({ method: "POST", path: "/workspaces", body: ProviderRequest.jsonBody(name === undefined ? {} : { name }) }, WireWorkspace),
    toWorkspace
  )

const WorkspacePage = Schema.Struct({
  items: Schema.Array(WireWorkspace),
  totalItems: Schema.Number,
  pageNumber: Schema.Number,
  pageSize: Schema.Number
})

/** The workspaces, newest first, as a stream: paged by `pageNumber`/`pageSize`, 100 at most. */
export const workspaces = (client: ProviderClient.ProviderClient, maxItems?: number) =>
  Pagination.pageNumber({ pageSize: 100, maxItems }, (pageNumber, pageSize) =>
    Effect.map(
      client.json({ method: "GET", path: "/workspaces", query: { pageNumber, pageSize } }, WorkspacePage),
      (r) => ({ items: r.items.map(toWorkspace), total: r.totalItems })
    ))

/** A file in a workspace (FileInfo, without its short-lived URL). */
export const WorkspaceFile = Schema.Struct({
  path: Schema.String,
  size: Schema.Number,
  lastModified: Schema.String
})
export type WorkspaceFile = typeof WorkspaceFile.Type

const WireFile = Schema.Struct({ path: Schema.String, size: Schema.Number, lastModified: Schema.String, url: nullable(Schema.String) })
const FilePage = Schema.Struct({
  files: Schema.Array(WireFile),
  nextCursor: nullable(Schema.String),
  hasMore: optional(Schema.Boolean)
})

/** One request for a page of a workspace's files (`limit`, `cursor`, `prefix`, `includeUrls`). */
const filePage = (client: ProviderClient.ProviderClient, workspaceId: string, query: ProviderRequest.ProviderRequest["query"]) =>
  client.json({ method: "GET", path: path`/workspaces/${workspaceId}/files`, query }, FilePage)

/** A workspace's files, in path order, as a stream: paged by `nextCursor`, 100 at most per page. */
export const workspaceFiles = (client: ProviderClient.ProviderClient, workspaceId: string, options: { readonly prefix?: string | undefined; readonly maxItems?: number | undefined } = {}) =>
  Pagination.cursor({ pageSize: 100, maxItems: options.maxItems }, (cursor, limit) =>
    Effect.map(
      filePage(client, workspaceId, { limit, cursor, prefix: options.prefix }),
      (r) => ({ items: r.files.map(({ path, size, lastModified }): WorkspaceFile => ({ path, size, lastModified })), next: r.nextCursor })
    ))

/**
 * The file at exactly `filePath` with its presigned download URL (valid 60 s): the listing
 * under that path as a prefix, where it comes first if it exists (paths are in order).
 */
export const workspaceFileUrl = (client: ProviderClient.ProviderClient, workspaceId: string, filePath: string) =>
  Effect.flatMap(filePage(client, workspaceId, { prefix: filePath, includeUrls: true, limit: 1 }), (r) => {
    const file = r.files[0]
    return file !== undefined && file.path === filePath && typeof file.url === "string"
      ? Effect.succeed({ path: file.path, size: file.size, lastModified: file.lastModified, url: file.url })
      : Effect.fail(new ConnectorError.NotFound({ message: `no file ${filePath} in workspace ${workspaceId}`, request: { method: "GET", path: `/workspaces/${workspaceId}/files` } }))
  })

/** A file to upload, as `FileUploadItem` declares it (the size is required for workspaces). */
export interface UploadItem {
  readonly name: string
  readonly contentType: string
  readonly size: number
}

const UploadAnswer = Schema.Struct({
  files: Schema.NonEmptyArray(Schema.Struct({ name: Schema.String, uploadUrl: Schema.String, path: Schema.String }))
})

/** Asks for a presigned PUT URL (valid 5 minutes) for one file: the URL and the path it will have. */
export const workspaceUploadUrl = (client: ProviderClient.ProviderClient, workspaceId: string, file: UploadItem, prefix?: string) =>
  Effect.map(
    client.json({
      method: "POST",
      path: path`/workspaces/${workspaceId}/files/upload`,
      query: { prefix },
      body: ProviderRequest.jsonBody({ files: [{ name: file.name, contentType: file.contentType, size: file.size }] })
    }, UploadAnswer),
    (r) => r.files[0]
  )

/**
 * The largest file "upload workspace file" sends: Browser Use documents no limit, so this one
 * is ours, and a larger file is refused before anything is sent.
 */
export const workspaceUploadLimit = 100 * FileInput.MiB

/** A file uploaded to a workspace: where it is, and what was sent. */
export const UploadedFile = Schema.Struct({
  path: Schema.String,
  name: Schema.String,
  size: Schema.Number,
  contentType: Schema.String
})
export type UploadedFile = typeof UploadedFile.Type

/**
 * Uploads a file to a workspace: opened (and checked against `maxBytes`) first, then declared
 * (name, content type, size) for a presigned PUT URL, then streamed there with no API key.
 */
export const uploadWorkspaceFile = (
  client: ProviderClient.ProviderClient,
  workspaceId: string,
  input: FileInput.FileInput,
  options: { readonly prefix?: string | undefined; readonly maxBytes: number }
): Effect.Effect<UploadedFile, ConnectorError.ConnectorError> =>
  Effect.scoped(Effect.gen(function*() {
    const file = yield* FileInput.open(client, input, { field: "file", maxBytes: options.maxBytes })
    const target = yield* workspaceUploadUrl(client, workspaceId, file, options.prefix)
    yield* Files.upload(client, { url: target.uploadUrl }, file)
    return { path: target.path, name: file.name, size: file.size, contentType: file.contentType }
  }))

/** A workspace file downloaded to a local path. */
export const DownloadedFile = Schema.Struct({
  path: Schema.String,
  size: Schema.Number,
  contentType: Schema.NullOr(Schema.String),
  workspacePath: Schema.String
})
export type DownloadedFile = typeof DownloadedFile.Type

/** Downloads a workspace file to `to`: its presigned URL (listed with `includeUrls`), streamed there. */
export const downloadWorkspaceFile = (
  client: ProviderClient.ProviderClient,
  workspaceId: string,
  filePath: string,
  options: { readonly to: string; readonly maxBytes?: number | undefined }
): Effect.Effect<DownloadedFile, ConnectorError.ConnectorError> =>
  Effect.flatMap(workspaceFileUrl(client, workspaceId, filePath), (file) =>
    Effect.map(
      Files.downloadUrl(client, file.url, { to: options.to, maxBytes: options.maxBytes, field: "to" }),
      (downloaded): DownloadedFile => ({ path: downloaded.path, size: downloaded.size, contentType: downloaded.contentType ?? null, workspacePath: file.path })
    ))
