/** A file Browser Use hands out as a presigned URL (a workspace's file, a browser's download), saved locally. */
import { type ConnectorError, Files, type ProviderClient } from "@x/core"
import * as Effect from "effect/Effect"

/** The saved file: where it is, its size and type. */
export interface Saved {
  readonly path: string
  readonly size: number
  readonly contentType: string | null
}

/** Streams the presigned URL's file to `options.to` (no API key sent there), within `maxBytes`. */
export const saveTo = (
  client: ProviderClient.ProviderClient,
  url: string,
  options: { readonly to: string; readonly maxBytes?: number | undefined }
): Effect.Effect<Saved, ConnectorError.ConnectorError> =>
  Effect.map(
    Files.downloadUrl(client, url, { to: options.to, maxBytes: options.maxBytes, field: "to" }),
    (downloaded) => ({ path: downloaded.path, size: downloaded.size, contentType: downloaded.contentType ?? null })
  )
