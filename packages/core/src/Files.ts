/**
 * Moving files over HTTP without holding them in memory: a download streamed to a path (from
 * the provider, with the connection's credentials, or from an external URL such as a
 * presigned download URL, without them), and an upload of an opened file to a presigned URL
 * (a PUT of the file) or to a presigned POST form (S3's browser-based upload).
 * Both go through the connection's `ProviderClient`: time limit, retries and typed errors as
 * for every request (a retried upload resends the whole file; a Blob is read again).
 *
 * A download's destination is resolved by the `FilePolicy` in context (inside its files
 * directory, symlinks resolved, no `..` segment) before anything is sent, and an existing file
 * is replaced only with `overwrite`. The body is read with a `ResponseReader.streaming`
 * reader, so the HttpClient hands it over as it arrives (`@x/http-undici` bypasses its buffer
 * and its 64 MiB cap); it is written to a temporary file next to the target (mode 0600) and
 * put under the target's name once complete: a failure leaves nothing there.
 *
 * @since 0.2.0
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Errors from "./ConnectorError.js"
import type * as FileInput from "./FileInput.js"
import * as FilePolicy from "./FilePolicy.js"
import { formatBytes } from "./internal/fileSource.js"
import { toFile } from "./internal/fileWriter.js"
import * as LocalFiles from "./internal/localFiles.js"
import * as Property from "./Property.js"
import type * as ProviderClient from "./ProviderClient.js"
import * as ProviderRequest from "./ProviderRequest.js"
import * as ResponseReader from "./ResponseReader.js"

/**
 * A downloaded file: its path, size in bytes, and the content type the response declared.
 *
 * @since 0.2.0
 * @category models
 */
export interface Downloaded {
  readonly path: string
  readonly size: number
  readonly contentType: string | undefined
}

/**
 * Where a download goes: the target path (its directory must exist; resolved by the
 * `FilePolicy`), whether a file already there is replaced (default: no, the download is
 * refused), an optional size limit, the parameter that named the path (errors name it,
 * default "path"), and the time limit of the whole transfer (default `transferTimeout`).
 *
 * @since 0.2.0
 * @category models
 */
export interface DownloadOptions {
  readonly to: string
  /** @since 0.3.0 */
  readonly overwrite?: boolean | undefined
  readonly maxBytes?: number | undefined
  readonly field?: string | undefined
  readonly timeout?: Duration.DurationInput | undefined
}

/**
 * A download action's own inputs, the same in every component: where it writes (`saveTo`,
 * under the name the action gives it), whether it may replace a file there, and the largest
 * size it takes.
 *
 * @since 0.3.0
 * @category downloads
 */
export const downloadInputs = {
  saveTo: Property.string({
    title: "Save to",
    description: "The file to write, inside the files directory (relative to it, or absolute); its directory must exist.",
    required: true,
    minLength: 1
  }),
  overwrite: Property.boolean({ title: "Overwrite", description: "Replace a file already at the path (default: the download is refused)." }),
  maxBytes: Property.integer({ title: "Largest size (bytes)", minimum: 1 })
}

/**
 * A download's destination, resolved by the `FilePolicy` in context: the path it will write
 * (inside the files directory, its directory's symlinks resolved), or an `InvalidInput` naming
 * `field` (outside, a `..` segment, a missing directory, or a file already there without
 * `overwrite`). `download` does this itself before its request; an action that sends other
 * requests first calls it at its start, so that a refused path sends nothing.
 *
 * @since 0.3.0
 * @category downloads
 */
export const destination = (
  to: string,
  options: { readonly field?: string | undefined; readonly overwrite?: boolean | undefined } = {}
): Effect.Effect<string, Errors.InvalidInput> =>
  Effect.flatMap(FilePolicy.FilePolicy, (policy) =>
    Effect.mapError(LocalFiles.writable(policy, to, options.overwrite === true), (problem) => {
      const field = options.field ?? "path"
      return new Errors.InvalidInput({ message: `${field}: ${problem}`, issues: [{ path: field, message: problem }] })
    }))

/**
 * The default time limit of one upload or download attempt, body included: 10 minutes.
 *
 * @since 0.2.0
 * @category constants
 */
export const transferTimeout: Duration.Duration = Duration.minutes(10)

/**
 * Sends a provider request (with the connection's credentials) and streams its response body
 * to `options.to`, once the `FilePolicy` allows it (see `destination`). A body over
 * `maxBytes` (declared or counted) is an `UnexpectedResponse`, a target that is refused or
 * cannot be written an `InvalidInput` naming `field`.
 *
 * @since 0.2.0
 * @category downloads
 */
export const download = (
  client: ProviderClient.ProviderClient,
  request: ProviderRequest.ProviderRequest,
  options: DownloadOptions
): Effect.Effect<Downloaded, Errors.ConnectorError> => {
  const field = options.field ?? "path"
  const maxBytes = options.maxBytes
  const overwrite = options.overwrite === true
  return Effect.flatMap(destination(options.to, { field, overwrite }), (path) =>
    client.send(
      {
        ...request,
        headers: { accept: "*/*", ...request.headers },
        timeout: request.timeout ?? options.timeout ?? transferTimeout
      },
      ResponseReader.streaming(toFile({
        path,
        overwrite,
        maxBytes,
        tooLarge: (info, size) =>
          new Errors.UnexpectedResponse({
            message: `the file is ${size === undefined ? "larger than" : `${formatBytes(size)}, over`} the limit of ${formatBytes(maxBytes!)}`,
            request: info
          }),
        unwritable: (message) => new Errors.InvalidInput({ message, issues: [{ path: field, message }] })
      }))
    ))
}

/**
 * Streams the body of an external URL (a presigned download URL, say) to `options.to`,
 * without the connection's credentials.
 *
 * @since 0.2.0
 * @category downloads
 */
export const downloadUrl = (
  client: ProviderClient.ProviderClient,
  url: string,
  options: DownloadOptions
): Effect.Effect<Downloaded, Errors.ConnectorError> =>
  download(client.external, { method: "GET", path: url }, options)

/**
 * A presigned upload URL: the method (default PUT) and the headers it was signed with.
 *
 * @since 0.2.0
 * @category models
 */
export interface UploadTarget {
  readonly url: string
  readonly method?: "PUT" | "POST" | undefined
  readonly headers?: Readonly<Record<string, string>> | undefined
  readonly timeout?: Duration.DurationInput | undefined
}

/**
 * Uploads an opened file to a presigned URL: the file is the whole body, streamed, with its
 * `Content-Type` and `Content-Length`; no credentials of the connection are sent there. The
 * response body is read and dropped.
 *
 * @since 0.2.0
 * @category uploads
 */
export const upload = (
  client: ProviderClient.ProviderClient,
  target: UploadTarget,
  file: FileInput.OpenedFile
): Effect.Effect<void, Errors.ConnectorError> =>
  client.external.void({
    method: target.method ?? "PUT",
    path: target.url,
    headers: { accept: "*/*", ...target.headers },
    body: ProviderRequest.fileBody(file),
    timeout: target.timeout ?? transferTimeout
  })

/**
 * A presigned POST form (S3's browser-based upload): the URL and the fields the provider
 * signed (`key`, `Policy`, `X-Amz-Signature`, …), sent as they are, in their order.
 *
 * @since 0.2.0
 * @category models
 */
export interface UploadForm {
  readonly url: string
  readonly fields: Readonly<Record<string, string>>
  readonly timeout?: Duration.DurationInput | undefined
}

/**
 * Uploads an opened file to a presigned POST form: a streamed `multipart/form-data` POST of
 * every field of the form, then the file as the part `fileField` (default "file"), last, as
 * S3 requires; no credentials of the connection are sent there. The response body (S3's XML,
 * or nothing) is read and dropped; a refusal (403 for an expired or altered policy, 400 for a
 * file over its size range) is a typed error.
 *
 * @since 0.2.0
 * @category uploads
 */
export const uploadForm = (
  client: ProviderClient.ProviderClient,
  form: UploadForm,
  file: FileInput.OpenedFile,
  fileField = "file"
): Effect.Effect<void, Errors.ConnectorError> =>
  client.external.void({
    method: "POST",
    path: form.url,
    headers: { accept: "*/*" },
    body: ProviderRequest.multipartBody({ fields: form.fields, files: { [fileField]: file } }),
    timeout: form.timeout ?? transferTimeout
  })
