/**
 * Browser Use v3's workspaces and their files on the wire (`/workspaces…`): the workspace, its
 * size, its files listed by cursor, uploaded through the presigned PUT URLs the API hands out
 * (several in one declaration), downloaded from presigned GET URLs, deleted.
 */
import { ConnectorError, FileInput, Files, Pagination, ProviderClient, ProviderRequest } from "@x/core"
import { destination, type SaveOptions, saveTo } from "./files.js"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { nullable } from "./shared.js"

const { path } = ProviderRequest
const optional = Schema.optional

/** A workspace: persistent file storage shared by sessions (WorkspaceView); no name is null, dates left out are absent. */
export const Workspace = Schema.Struct({
  id: Schema.String,
  name: Schema.NullOr(Schema.String),
  createdAt: optional(Schema.String),
  updatedAt: optional(Schema.String)
})
export type Workspace = typeof Workspace.Type

const WireWorkspace = Schema.Struct({ id: Schema.String, name: nullable(Schema.String), createdAt: optional(Schema.String), updatedAt: optional(Schema.String) })
const toWorkspace = (wire: typeof WireWorkspace.Type): Workspace => ({ ...wire, name: wire.name ?? null })

export const createWorkspace = (client: ProviderClient.ProviderClient, name: string | undefined) =>
  Effect.map(
    client.json({ method: "POST", path: "/workspaces", body: ProviderRequest.jsonBody(name === undefined ? {} : { name }) }, WireWorkspace),
    toWorkspace
  )

export const getWorkspace = (client: ProviderClient.ProviderClient, workspaceId: string) =>
  Effect.map(client.json({ method: "GET", path: path`/workspaces/${workspaceId}` }, WireWorkspace), toWorkspace)

/** Renames a workspace (`null` clears its name). */
export const updateWorkspace = (client: ProviderClient.ProviderClient, workspaceId: string, name: string | null) =>
  Effect.map(
    client.json({ method: "PATCH", path: path`/workspaces/${workspaceId}`, body: ProviderRequest.jsonBody({ name }) }, WireWorkspace),
    toWorkspace
  )

/** What a deletion outputs: what is gone (Browser Use answers 204, no body). */
export const DeletedWorkspace = Schema.Struct({ workspaceId: Schema.String, deleted: Schema.Literal(true) })

/** Deletes a workspace and every file in it. */
export const deleteWorkspace = (client: ProviderClient.ProviderClient, workspaceId: string) =>
  Effect.as(
    client.void({ method: "DELETE", path: path`/workspaces/${workspaceId}` }),
    { workspaceId, deleted: true as const }
  )

/**
 * A workspace's storage usage. The v3 document leaves the answer's shape open (`{}`), so the
 * whole answer is kept as `usage`, and the byte and file counts are read from it when it has
 * them as numbers (`usedBytes`, `fileCount`), null otherwise.
 */
export const WorkspaceSize = Schema.Struct({
  workspaceId: Schema.String,
  usedBytes: Schema.NullOr(Schema.Number),
  fileCount: Schema.NullOr(Schema.Number),
  usage: Schema.Record({ key: Schema.String, value: Schema.Unknown })
})
export type WorkspaceSize = typeof WorkspaceSize.Type

const WireSize = Schema.Record({ key: Schema.String, value: Schema.Unknown })
const numberOr = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null)

export const getWorkspaceSize = (client: ProviderClient.ProviderClient, workspaceId: string) =>
  Effect.map(
    client.json({ method: "GET", path: path`/workspaces/${workspaceId}/size` }, WireSize),
    (usage): WorkspaceSize => ({ workspaceId, usedBytes: numberOr(usage["usedBytes"]), fileCount: numberOr(usage["fileCount"]), usage })
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

/** A file in a workspace (FileInfo, without its short-lived URL); its size and date absent when left out. */
export const WorkspaceFile = Schema.Struct({
  path: Schema.String,
  size: optional(Schema.Number),
  lastModified: optional(Schema.String)
})
export type WorkspaceFile = typeof WorkspaceFile.Type

const WireFile = Schema.Struct({ path: Schema.String, size: optional(Schema.Number), lastModified: optional(Schema.String), url: nullable(Schema.String) })
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
  files: Schema.Array(Schema.Struct({ name: Schema.String, uploadUrl: Schema.String, path: Schema.String }))
})

/** The most files one upload request declares (`FileUploadRequest.files`: 1 to 10). */
export const workspaceUploadMaxFiles = 10

/**
 * Declares files (name, content type, size) in one request, for a presigned PUT URL (valid 5
 * minutes) each: the URLs and the paths the files will have, in the order declared.
 */
export const workspaceUploadUrls = (client: ProviderClient.ProviderClient, workspaceId: string, files: ReadonlyArray<UploadItem>, prefix?: string) => {
  const request = { method: "POST" as const, path: path`/workspaces/${workspaceId}/files/upload` }
  return Effect.flatMap(
    client.json({
      ...request,
      query: { prefix },
      body: ProviderRequest.jsonBody({ files: files.map((file) => ({ name: file.name, contentType: file.contentType, size: file.size })) })
    }, UploadAnswer),
    (answer) =>
      // One URL per declared file, each for the file of its name: anything else would put bytes at the wrong path.
      answer.files.length === files.length && answer.files.every((target, index) => target.name === files[index]!.name)
        ? Effect.succeed(answer.files)
        : Effect.fail(new ConnectorError.UnexpectedResponse({
          message: `asked for upload URLs for ${files.map((f) => f.name).join(", ")}, got them for ${answer.files.map((f) => f.name).join(", ") || "none"}`,
          request
        }))
  )
}

/**
 * The largest file "upload workspace file(s)" sends: Browser Use documents no limit, so this
 * one is ours, and a larger file is refused before anything is sent.
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

/** The same error, its message replaced: the tag, status and request a caller matches on stay. */
const withMessage = <E extends ConnectorError.ConnectorError>(error: E, message: string): E =>
  Object.assign(Object.create(Object.getPrototypeOf(error) as object) as E, error, { message })

export interface UploadOptions {
  readonly prefix?: string | undefined
  readonly maxBytes: number
  /** The input's name in errors about the file at this index (`file`, `files[2]`). */
  readonly field: (index: number) => string
}

/**
 * Uploads files to a workspace: each opened (and checked against `maxBytes`) first, then all
 * declared in one request for their presigned PUT URLs, then streamed there one after the
 * other with no API key. Two files of the same name are refused before anything is sent (the
 * second would overwrite the first). When a PUT fails with several files, the error (its tag
 * kept) names the file that failed and the paths already uploaded.
 */
export const uploadWorkspaceFiles = (
  client: ProviderClient.ProviderClient,
  workspaceId: string,
  inputs: ReadonlyArray<FileInput.FileInput>,
  options: UploadOptions
): Effect.Effect<ReadonlyArray<UploadedFile>, ConnectorError.ConnectorError> =>
  Effect.scoped(Effect.gen(function*() {
    const files = yield* Effect.forEach(inputs, (input, index) => FileInput.open(client, input, { field: options.field(index), maxBytes: options.maxBytes }))
    const repeated = files.findIndex((file, index) => files.findIndex((other) => other.name === file.name) !== index)
    if (repeated >= 0) {
      return yield* Effect.fail(ConnectorError.invalidInput([{ path: options.field(repeated), message: `has the same name as another file (${files[repeated]!.name}): it would overwrite it` }]))
    }
    const targets = yield* workspaceUploadUrls(client, workspaceId, files, options.prefix)
    const uploaded: Array<UploadedFile> = []
    for (const [index, file] of files.entries()) {
      const target = targets[index]!
      yield* Effect.mapError(Files.upload(client, { url: target.uploadUrl }, file), (error) =>
        files.length === 1 ? error : withMessage(error, `uploading ${file.name} (file ${index + 1} of ${files.length}) failed: ${error.message}; uploaded before it: ${uploaded.map((u) => u.path).join(", ") || "none"}`))
      uploaded.push({ path: target.path, name: file.name, size: file.size, contentType: file.contentType })
    }
    return uploaded
  }))

/** Uploads one file to a workspace (`uploadWorkspaceFiles` with one file, named `file` in errors). */
export const uploadWorkspaceFile = (
  client: ProviderClient.ProviderClient,
  workspaceId: string,
  input: FileInput.FileInput,
  options: { readonly prefix?: string | undefined; readonly maxBytes: number }
): Effect.Effect<UploadedFile, ConnectorError.ConnectorError> =>
  Effect.map(uploadWorkspaceFiles(client, workspaceId, [input], { ...options, field: () => "file" }), (uploaded) => uploaded[0]!)

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
  options: SaveOptions
): Effect.Effect<DownloadedFile, ConnectorError.ConnectorError> =>
  Effect.flatMap(destination(options), (saving) =>
    Effect.flatMap(workspaceFileUrl(client, workspaceId, filePath), (file) =>
      Effect.map(saveTo(client, file.url, saving), (saved): DownloadedFile => ({ ...saved, workspacePath: file.path }))))


/** What deleting a file outputs: which file of which workspace is gone. */
export const DeletedWorkspaceFile = Schema.Struct({ workspaceId: Schema.String, path: Schema.String, deleted: Schema.Literal(true) })

/** Deletes one file of a workspace, at exactly `filePath` (204; 404 when there is none). */
export const deleteWorkspaceFile = (client: ProviderClient.ProviderClient, workspaceId: string, filePath: string) =>
  Effect.as(
    client.void({ method: "DELETE", path: path`/workspaces/${workspaceId}/files`, query: { path: filePath } }),
    { workspaceId, path: filePath, deleted: true as const }
  )
