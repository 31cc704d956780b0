/**
 * A request to a provider, as a component describes it: a method, a path below the
 * connection's base URL, a query, headers and a body. `ProviderClient` sends it.
 *
 * @since 0.2.0
 */
import type * as Duration from "effect/Duration"

/**
 * The HTTP methods a provider request may use.
 *
 * @since 0.2.0
 * @category models
 */
export type HttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS"

/**
 * A query (or form) value: undefined and null are left out, an array repeats the parameter.
 *
 * @since 0.2.0
 * @category models
 */
export type QueryValue = string | number | boolean | null | undefined | ReadonlyArray<string | number | boolean>

/**
 * A file to send, opened (see `FileInput.open`): its name, content type, size, and its bytes
 * as a `Blob` that is read lazily and again for each attempt (a file-backed Blob from
 * `fs.openAsBlob`, say), so that a body is streamed and a retried upload resends all of it.
 *
 * @since 0.2.0
 * @category models
 */
export interface FilePart {
  readonly name: string
  readonly contentType: string
  readonly size: number
  readonly blob: Blob
}

/**
 * The body of a request; build it with `jsonBody`, `formBody`, `textBody`, `bytesBody`,
 * `multipartBody` or `fileBody`.
 *
 * @since 0.2.0
 * @category models
 */
export type Body =
  | { readonly _tag: "json"; readonly value: unknown }
  | { readonly _tag: "form"; readonly value: Readonly<Record<string, QueryValue>> }
  | { readonly _tag: "text"; readonly value: string; readonly contentType: string }
  | { readonly _tag: "bytes"; readonly value: Uint8Array; readonly contentType: string }
  | {
    readonly _tag: "multipart"
    readonly fields: Readonly<Record<string, QueryValue>>
    readonly files: Readonly<Record<string, FilePart>>
  }
  | { readonly _tag: "file"; readonly file: FilePart }

/**
 * A JSON body.
 *
 * @since 0.2.0
 * @category constructors
 */
export const jsonBody = (value: unknown): Body => ({ _tag: "json", value })

/**
 * A URL-encoded form body.
 *
 * @since 0.2.0
 * @category constructors
 */
export const formBody = (value: Readonly<Record<string, QueryValue>>): Body => ({ _tag: "form", value })

/**
 * A text body, UTF-8 plain text unless another content type is given.
 *
 * @since 0.2.0
 * @category constructors
 */
export const textBody = (value: string, contentType = "text/plain; charset=utf-8"): Body =>
  ({ _tag: "text", value, contentType })

/**
 * A binary body.
 *
 * @since 0.2.0
 * @category constructors
 */
export const bytesBody = (value: Uint8Array, contentType = "application/octet-stream"): Body =>
  ({ _tag: "bytes", value, contentType })

/**
 * A `multipart/form-data` body: the fields (undefined and null left out, an array repeats the
 * field), then the files, each streamed from its Blob, with a `Content-Length`.
 *
 * @since 0.2.0
 * @category constructors
 */
export const multipartBody = (parts: {
  readonly fields?: Readonly<Record<string, QueryValue>>
  readonly files: Readonly<Record<string, FilePart>>
}): Body => ({ _tag: "multipart", fields: parts.fields ?? {}, files: parts.files })

/**
 * A file as the whole body (a presigned upload, say): its content type and size as the
 * `Content-Type` and `Content-Length`, its bytes streamed.
 *
 * @since 0.2.0
 * @category constructors
 */
export const fileBody = (file: FilePart): Body => ({ _tag: "file", file })

/**
 * A request to the provider, relative to the connection's base URL.
 *
 * @since 0.2.0
 * @category models
 */
export interface ProviderRequest {
  readonly method: HttpMethod
  /** A path below the base URL, already encoded; build it with `path\`/cards/${id}\``. */
  readonly path: string
  /** Undefined and null values are left out; arrays repeat the parameter. */
  readonly query?: Readonly<Record<string, QueryValue>> | undefined
  readonly headers?: Readonly<Record<string, string>> | undefined
  readonly body?: Body | undefined
  /** Overrides the connection's timeout per attempt. */
  readonly timeout?: Duration.DurationInput | undefined
  /** Overrides the method's idempotency, e.g. a POST that carries an idempotency key. */
  readonly idempotent?: boolean | undefined
}

/**
 * Builds a path, percent-encoding every interpolated value: `path\`/boards/${id}/lists\``. A
 * value that is a dot segment ("." or "..", which a URL resolves, even percent-encoded) is
 * encoded twice, so it stays one segment of this path and cannot climb out of it.
 *
 * @since 0.2.0
 * @category constructors
 */
export const path = (strings: TemplateStringsArray, ...values: ReadonlyArray<string | number>): string =>
  strings.reduce((acc, part, i) => acc + part + (i < values.length ? segment(String(values[i])) : ""), "")

const segment = (value: string) =>
  value === "." || value === ".." ? value.replaceAll(".", "%252E") : encodeURIComponent(value)
