/**
 * Moving files over HTTP without holding them in memory: a download streamed to a path (from
 * the provider, with the connection's credentials, or from an external URL such as a
 * presigned download URL, without them), and an upload of an opened file to a presigned URL
 * (a PUT of the file) or to a presigned POST form (S3's browser-based upload).
 * Both go through the connection's `ProviderClient`: time limit, retries and typed errors as
 * for every request (a retried upload resends the whole file; a Blob is read again).
 *
 * A download is read with a `ResponseReader.streaming` reader, so the HttpClient hands the
 * body over as it arrives (`@x/http-undici` bypasses its buffer and its 64 MiB cap); it is
 * written to a temporary file next to the target (mode 0600) and renamed to the target once
 * complete: a failure leaves nothing under the target's name.
 *
 * @since 0.2.0
 */
import * as Duration from "effect/Duration"
import type * as Effect from "effect/Effect"
import * as Errors from "./ConnectorError.js"
import type * as FileInput from "./FileInput.js"
import { formatBytes } from "./internal/fileSource.js"
import { toFile } from "./internal/fileWriter.js"
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
 * Where a download goes: the target path (its directory must exist; a file there is
 * replaced), an optional size limit, the parameter that named the path (errors name it,
 * default "path"), and the time limit of the whole transfer (default `transferTimeout`).
 *
 * @since 0.2.0
 * @category models
 */
export interface DownloadOptions {
  readonly to: string
  readonly maxBytes?: number | undefined
  readonly field?: string | undefined
  readonly timeout?: Duration.DurationInput | undefined
}

/**
 * The default time limit of one upload or download attempt, body included: 10 minutes.
 *
 * @since 0.2.0
 * @category constants
 */
export const transferTimeout: Duration.Duration = Duration.minutes(10)

/**
 * Sends a provider request (with the connection's credentials) and streams its response body
 * to `options.to`. A body over `maxBytes` (declared or counted) is an `UnexpectedResponse`,
 * a target that cannot be written an `InvalidInput` naming `field`.
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
  return client.send(
    {
      ...request,
      headers: { accept: "*/*", ...request.headers },
      timeout: request.timeout ?? options.timeout ?? transferTimeout
    },
    ResponseReader.streaming(toFile({
      path: options.to,
      maxBytes,
      tooLarge: (info, size) =>
        new Errors.UnexpectedResponse({
          message: `the file is ${size === undefined ? "larger than" : `${formatBytes(size)}, over`} the limit of ${formatBytes(maxBytes!)}`,
          request: info
        }),
      unwritable: (message) => new Errors.InvalidInput({ message, issues: [{ path: field, message }] })
    }))
  )
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
