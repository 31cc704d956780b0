/**
 * Assets: a site's list, one asset, its deletion, and Webflow's two-step upload: `POST
 * /sites/{id}/assets` declares the file (its name and the MD5 of its bytes) and answers with a
 * presigned S3 POST form (`uploadUrl`, `uploadDetails`), to which the file is then sent.
 */
import { ConnectorError, FileInput, Files, type ProviderClient, ProviderRequest } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { paged } from "./shared.js"

const { path } = ProviderRequest

/** A responsive variant Webflow made of an image. */
export const AssetVariant = Schema.Struct({
  hostedUrl: Schema.optional(Schema.String),
  originalFileName: Schema.optional(Schema.String),
  displayName: Schema.optional(Schema.String),
  format: Schema.optional(Schema.String),
  width: Schema.optional(Schema.Number),
  height: Schema.optional(Schema.NullOr(Schema.Number)),
  quality: Schema.optional(Schema.Number),
  error: Schema.optional(Schema.NullOr(Schema.String))
})

/** An asset as `GET /assets/{id}` and the site's list answer it. */
export const Asset = Schema.Struct({
  id: Schema.String,
  siteId: Schema.optional(Schema.String),
  originalFileName: Schema.optional(Schema.String),
  displayName: Schema.optional(Schema.String),
  contentType: Schema.optional(Schema.String),
  size: Schema.optional(Schema.Number),
  hostedUrl: Schema.optional(Schema.String),
  createdOn: Schema.optional(Schema.String),
  lastUpdated: Schema.optional(Schema.String),
  /** None (`[]`) when left out. */
  variants: Schema.optionalWith(Schema.Array(AssetVariant), { default: () => [] }),
  altText: Schema.optional(Schema.NullOr(Schema.String))
})
export type Asset = typeof Asset.Type

/**
 * Webflow's size limits of an asset: 4 MB for an image, 10 MB for any other file (Webflow's
 * developer docs, Designer API "Create an Asset", section Limits; the Data API's document
 * gives none). Read as MiB, as core's file limits are.
 */
export const limits = { image: 4 * FileInput.MiB, document: 10 * FileInput.MiB } as const

/** Webflow takes file names of fewer than 100 characters (the document's `fileName`). */
export const maxFileName = 99

/** The site's assets, every page up to `maxItems` (a stream). */
export const assets = (client: ProviderClient.ProviderClient, siteId: string, maxItems?: number) =>
  paged(client, { path: path`/sites/${siteId}/assets`, key: "assets", maxItems }, Asset)

export const getAsset = (client: ProviderClient.ProviderClient, assetId: string) =>
  client.json({ method: "GET", path: path`/assets/${assetId}` }, Asset)

export const deleteAsset = (client: ProviderClient.ProviderClient, assetId: string) =>
  client.void({ method: "DELETE", path: path`/assets/${assetId}` })

/** What `POST /sites/{id}/assets` answers: the asset's id and the presigned POST form. */
const UploadTicket = Schema.Struct({
  id: Schema.String,
  uploadUrl: Schema.String,
  uploadDetails: Schema.Record({ key: Schema.String, value: Schema.String })
})

const invalidFile = (message: string) => new ConnectorError.InvalidInput({ message, issues: [{ path: "file", message }] })

/** Checks what only the opened file tells: an image's own limit, the name's length. */
const checked = (file: FileInput.OpenedFile) =>
  file.contentType.startsWith("image/") && file.size > limits.image
    ? Effect.fail(invalidFile(`file is an image of ${file.size} bytes, over Webflow's limit of ${limits.image} bytes (4 MB) for images`))
    : file.name.length > maxFileName
    ? Effect.fail(invalidFile(`file's name must be fewer than 100 characters (it has ${file.name.length})`))
    : Effect.succeed(file)

/**
 * Uploads a file as an asset of the site: opened and checked against Webflow's limits, hashed
 * (MD5, streamed), declared to Webflow, sent to the presigned form it answers with (no Webflow
 * token sent there), then read back as Webflow serves it.
 */
export const uploadAsset = (
  client: ProviderClient.ProviderClient,
  siteId: string,
  input: FileInput.FileInput,
  options: { readonly parentFolder?: string | undefined }
) =>
  Effect.scoped(Effect.gen(function*() {
    const file = yield* Effect.flatMap(FileInput.open(client, input, { field: "file", maxBytes: limits.document }), checked)
    const fileHash = yield* FileInput.digest(file, "md5")
    const ticket = yield* client.json({
      method: "POST",
      path: path`/sites/${siteId}/assets`,
      body: ProviderRequest.jsonBody({ fileName: file.name, fileHash, parentFolder: options.parentFolder })
    }, UploadTicket)
    yield* Files.uploadForm(client, { url: ticket.uploadUrl, fields: ticket.uploadDetails }, file)
    return yield* getAsset(client, ticket.id)
  }))
