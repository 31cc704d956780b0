/** A card's attachments (Trello REST API 1): add (a file or a link), get, download, list and delete. */
import { ConnectorError, FileInput, Files, ProviderClient, ProviderRequest } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { falseOr, nullOr } from "./shared.js"

/**
 * A card's attachment: an uploaded file (`isUpload`, its size in `bytes`) or a link. Trello
 * answers `bytes` as a number (the spec says string) and adds `fileName` to uploads. A name
 * left out is empty; `isUpload` left out is `false` (not known to be a file).
 */
export const Attachment = Schema.Struct({
  id: Schema.String,
  name: Schema.optionalWith(Schema.String, { default: () => "" }),
  url: Schema.optional(Schema.String),
  isUpload: falseOr,
  mimeType: nullOr(Schema.String),
  bytes: nullOr(Schema.Number),
  fileName: nullOr(Schema.String),
  date: Schema.optional(Schema.String)
})
export type Attachment = typeof Attachment.Type

/** Trello's largest attachment: 10 MB in a free workspace, 250 MB in a paid one. */
export const attachmentLimits = { free: 10 * FileInput.MiB, paid: 250 * FileInput.MiB } as const

const { path } = ProviderRequest

/**
 * Attaches a file (uploaded as `multipart/form-data`, opened within `maxBytes` before anything
 * is sent) or a link to a card. The name and type default to the file's.
 */
export const addAttachment = (
  client: ProviderClient.ProviderClient,
  idCard: string,
  attachment: {
    file?: FileInput.FileInput | undefined
    url?: string | undefined
    name?: string | undefined
    mimeType?: string | undefined
    setCover?: boolean | undefined
    maxBytes: number
  }
) => {
  const request = { method: "POST", path: path`/cards/${idCard}/attachments` } as const
  const { file, mimeType, name, setCover } = attachment
  return file === undefined
    ? client.json({ ...request, body: ProviderRequest.formBody({ url: attachment.url, name, mimeType, setCover }) }, Attachment)
    : Effect.scoped(Effect.flatMap(FileInput.open(client, file, { field: "file", maxBytes: attachment.maxBytes }), (opened) =>
      client.json({
        ...request,
        body: ProviderRequest.multipartBody({
          fields: { name: name ?? opened.name, mimeType: mimeType ?? opened.contentType, setCover },
          files: { file: opened }
        }),
        timeout: Files.transferTimeout
      }, Attachment)))
}

export const getAttachment = (client: ProviderClient.ProviderClient, idCard: string, idAttachment: string) =>
  client.json({ method: "GET", path: path`/cards/${idCard}/attachments/${idAttachment}` }, Attachment)

const lastSegment = (url: string) => {
  const segment = url.slice(url.lastIndexOf("/") + 1)
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

/**
 * Downloads an uploaded attachment to `to`, streamed: Trello serves the file at
 * `/cards/{id}/attachments/{id}/download/{fileName}` to the `Authorization: OAuth` header
 * (the connection's credentials), not to `key` and `token` in the query.
 */
export const downloadAttachment = (
  client: ProviderClient.ProviderClient,
  idCard: string,
  idAttachment: string,
  options: { to: string; overwrite?: boolean | undefined; maxBytes?: number | undefined }
) =>
  // The destination is checked by the file policy first: a refused path sends nothing.
  Effect.flatMap(Effect.zip(Files.destination(options.to, { field: "path", overwrite: options.overwrite }), getAttachment(client, idCard, idAttachment)), ([to, attachment]) => {
    if (!attachment.isUpload) {
      const message = "the attachment is a link, not an uploaded file"
      return Effect.fail(new ConnectorError.InvalidInput({ message, issues: [{ path: "idAttachment", message }] }))
    }
    // Trello serves a file under its name; without one, under the last segment of its URL.
    const fileName = attachment.fileName ?? (attachment.url === undefined ? attachment.id : lastSegment(attachment.url))
    return Effect.map(
      Files.download(client, {
        method: "GET",
        path: path`/cards/${idCard}/attachments/${idAttachment}/download/${fileName}`
      }, { to, overwrite: options.overwrite, maxBytes: options.maxBytes, field: "path" }),
      (downloaded) => ({ ...downloaded, contentType: downloaded.contentType ?? null, name: attachment.name, fileName })
    )
  })

export const listAttachments = (client: ProviderClient.ProviderClient, idCard: string) =>
  client.json({ method: "GET", path: path`/cards/${idCard}/attachments` }, Schema.Array(Attachment))

export const deleteAttachment = (client: ProviderClient.ProviderClient, idCard: string, idAttachment: string) =>
  client.void({ method: "DELETE", path: path`/cards/${idCard}/attachments/${idAttachment}` })
