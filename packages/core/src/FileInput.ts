/**
 * Files as inputs: a property whose value names a file by a local `path`, a `url` or its
 * `base64` bytes, with a name and a content type; and `open`, which an action calls in its
 * run to get the file's bytes (stat a path, read a URL into a temporary file, decode base64),
 * checked against the action's size limit before any byte is sent to the provider.
 *
 * Decoding a parameter checks only the value's shape: no file is touched and no byte read
 * until the action runs. Where a path or URL may reach is the `FilePolicy` in context. An opened file is a lazily read Blob, sent as a streamed
 * `ProviderRequest.multipartBody` or `fileBody` (or by `Files.upload` to a presigned URL).
 *
 * @since 0.2.0
 */
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import { createHash } from "node:crypto"
import * as Errors from "./ConnectorError.js"
import * as internal from "./internal/fileSource.js"
import { type Common, make, type Property } from "./internal/property.js"
import type * as ProviderClient from "./ProviderClient.js"
import type * as ProviderRequest from "./ProviderRequest.js"

/**
 * A file on the local disk; its name defaults to the path's last segment.
 *
 * @since 0.2.0
 * @category models
 */
export interface FromPath {
  readonly path: string
  readonly name?: string | undefined
  readonly contentType?: string | undefined
}

/**
 * A file read from an http(s) URL; its name defaults to the URL's last segment, its content
 * type to the response's.
 *
 * @since 0.2.0
 * @category models
 */
export interface FromUrl {
  readonly url: string
  readonly name?: string | undefined
  readonly contentType?: string | undefined
}

/**
 * A file given whole, base64-encoded (standard or URL-safe alphabet), with its name.
 *
 * @since 0.2.0
 * @category models
 */
export interface FromBase64 {
  readonly base64: string
  readonly name: string
  readonly contentType?: string | undefined
}

/**
 * The value of a file property. Without `contentType`, it is guessed from the name's
 * extension (else `application/octet-stream`).
 *
 * @since 0.2.0
 * @category models
 */
export type FileInput = FromPath | FromUrl | FromBase64

/**
 * An opened file: name, content type, size and its bytes as a lazily read Blob.
 *
 * @since 0.2.0
 * @category models
 */
export type OpenedFile = ProviderRequest.FilePart

/**
 * One mebibyte (1,048,576 bytes), for writing limits: `10 * FileInput.MiB`.
 *
 * @since 0.2.0
 * @category constants
 */
export const MiB = 1024 * 1024

const sources = ["path", "url", "base64"] as const
const allowed = new Set<string>([...sources, "name", "contentType"])
const mediaType = /^[\w!#$&^.+-]+\/[\w!#$&^.+-]+(\s*;\s*[\w!#$&^.+-]+=("[^"\r\n]*"|[\w!#$&^.+-]+))*$/

/** The first thing wrong with a value's shape, or undefined: nothing is opened or read. */
const problemOf = (value: unknown): string | undefined => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return "must be a file: { path }, { url } or { name, base64 }"
  }
  const record = value as Record<string, unknown>
  for (const key in record) if (!allowed.has(key)) return `has an unknown field "${key}"`
  const given = sources.filter((source) => record[source] !== undefined)
  if (given.length !== 1) return "must have exactly one of path, url or base64"
  const source = given[0]!
  const text = record[source]
  if (typeof text !== "string" || (source !== "base64" && text === "")) return `${source} must be a non-empty string`
  if (source === "path" && text.includes("\0")) return "path must not contain a NUL character"
  if (source === "url" && !/^https?:\/\/[^\s]+$/i.test(text)) return "url must be an http or https URL"
  const name = record["name"]
  if (name !== undefined && (typeof name !== "string" || name === "" || name.length > 255 || /[\0-\x1f]/.test(name))) {
    return "name must be 1 to 255 characters, without control characters"
  }
  if (source === "base64" && name === undefined) return "a base64 file needs a name"
  const contentType = record["contentType"]
  if (contentType !== undefined && (typeof contentType !== "string" || !mediaType.test(contentType))) {
    return "contentType must be a media type, e.g. text/plain"
  }
  return undefined
}

const isFileInput = (value: unknown): value is FileInput => problemOf(value) === undefined

const FileInputSchema: Schema.Schema<FileInput> = Schema.declare(isFileInput, {
  message: (issue) => problemOf(issue.actual) ?? "must be a file"
})

/**
 * A file input. `maxBytes`, when given, is the largest file the property takes (shown in its
 * description); an action enforces its own limit when it opens the file (`open`).
 *
 * @since 0.2.0
 * @category constructors
 */
export const property = <const R extends boolean = false>(
  config: Common<R> & { readonly maxBytes?: number }
): Property<FileInput, R> =>
  make("FILE", config, FileInputSchema, {
    sources,
    ...(config.maxBytes !== undefined ? { maxBytes: config.maxBytes } : {})
  }, isFileInput)

/**
 * How `open` checks a file: the parameter's name (errors name it) and the largest file it
 * takes; `timeout` limits the read of a URL (default: the connection's).
 *
 * @since 0.2.0
 * @category models
 */
export interface OpenOptions {
  readonly field: string
  readonly maxBytes: number
  readonly timeout?: Duration.DurationInput | undefined
}

/**
 * Opens a file input in an action's run, before anything is sent: a path is resolved by the
 * `FilePolicy` in context and stat'ed, base64 decoded, a URL checked by the policy and read
 * (without the connection's credentials) into a temporary file, counted as it arrives, and
 * removed when the scope closes. A file over `maxBytes` is an `InvalidInput` naming the field,
 * its size and the limit; so is a path or URL the policy refuses, a missing file or a URL that
 * answers with an error.
 *
 * @since 0.2.0
 * @category constructors
 */
export const open: (
  client: ProviderClient.ProviderClient,
  input: FileInput,
  options: OpenOptions
) => Effect.Effect<OpenedFile, Errors.ConnectorError, Scope.Scope> = internal.open

/**
 * The hex digest of an opened file's bytes (`"md5"`, `"sha256"`, any algorithm node:crypto
 * knows), read once as a stream: a large file is never held whole. For a provider that asks
 * for a file's hash before its upload (Webflow's assets: MD5). A file that can no longer be
 * read (changed or removed since it was opened) is an `InvalidInput` naming `field`.
 *
 * @since 0.2.0
 * @category utils
 */
export const digest = (
  file: OpenedFile,
  algorithm: string,
  field = "file"
): Effect.Effect<string, Errors.InvalidInput> =>
  Effect.tryPromise({
    try: async () => {
      const hash = createHash(algorithm)
      const reader = file.blob.stream().getReader()
      for (let read = await reader.read(); !read.done; read = await reader.read()) hash.update(read.value)
      return hash.digest("hex")
    },
    catch: (cause) => {
      const message = `${field}: cannot read ${file.name} (${cause instanceof Error ? cause.message : String(cause)})`
      return new Errors.InvalidInput({ message, issues: [{ path: field, message }] })
    }
  })
