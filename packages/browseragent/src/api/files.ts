/** A file Browser Use hands out as a presigned URL (a workspace's file, a browser's download), saved locally. */
import { type ConnectorError, Files, type ProviderClient } from "@x/core"
import * as Effect from "effect/Effect"

/** The saved file: where it is, its size and type. */
export interface Saved {
  readonly path: string
  readonly size: number
  readonly contentType: string | null
}

/** Where to save a file: the path (the `to` input), whether a file there is replaced, the largest size. */
export interface SaveOptions {
  readonly to: string
  readonly overwrite?: boolean | undefined
  readonly maxBytes?: number | undefined
}

/**
 * Checks where a file will be saved, by the file policy, before anything is sent (the
 * listing that finds the file's URL included): the path it will write, or an `InvalidInput`
 * naming `to`.
 */
export const destination = (options: SaveOptions): Effect.Effect<SaveOptions, ConnectorError.InvalidInput> =>
  Effect.map(Files.destination(options.to, { field: "to", overwrite: options.overwrite }), (to) => ({ ...options, to }))

/** Streams the presigned URL's file to `options.to` (no API key sent there), within `maxBytes`. */
export const saveTo = (
  client: ProviderClient.ProviderClient,
  url: string,
  options: SaveOptions
): Effect.Effect<Saved, ConnectorError.ConnectorError> =>
  Effect.map(
    Files.downloadUrl(client, url, { to: options.to, overwrite: options.overwrite, maxBytes: options.maxBytes, field: "to" }),
    (downloaded) => ({ path: downloaded.path, size: downloaded.size, contentType: downloaded.contentType ?? null })
  )
