/**
 * Standalone browser sessions (`/browsers`, Browser Use v3): a cloud Chrome driven over CDP,
 * charged by the hour upfront and refunded when stopped; the files it downloaded, listed by
 * cursor and fetched through presigned URLs (15 minutes).
 */
import { ConnectorError, Pagination, type ProviderClient, ProviderRequest } from "@x/core"
import { destination, type SaveOptions, saveTo } from "./files.js"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { nullable } from "./shared.js"

const { path } = ProviderRequest

export { proxyCountryCodes } from "./proxyCountries.js"

export const browserStatuses = ["active", "stopped"] as const


/** A browser session as the wire has it (BrowserSessionView, BrowserSessionItemView). */
const WireBrowserSession = Schema.Struct({
  id: Schema.String,
  status: Schema.optional(Schema.String),
  liveUrl: nullable(Schema.String),
  cdpUrl: nullable(Schema.String),
  timeoutAt: Schema.optional(Schema.String),
  startedAt: Schema.optional(Schema.String),
  finishedAt: nullable(Schema.String),
  proxyUsedMb: Schema.optional(Schema.String),
  proxyCost: Schema.optional(Schema.String),
  browserCost: Schema.optional(Schema.String),
  agentSessionId: nullable(Schema.String),
  recordingUrl: nullable(Schema.String)
})

/**
 * A browser session: where to drive it (`cdpUrl`) and watch it (`liveUrl`), until when, at what
 * cost. Left out, a URL or the end is null, a cost `"0"`; the status and times are then absent.
 */
export const BrowserSession = Schema.Struct({
  id: Schema.String,
  /** `active` or `stopped` (kept as sent, should the service add one). */
  status: Schema.optional(Schema.String),
  liveUrl: Schema.NullOr(Schema.String),
  cdpUrl: Schema.NullOr(Schema.String),
  timeoutAt: Schema.optional(Schema.String),
  startedAt: Schema.optional(Schema.String),
  finishedAt: Schema.NullOr(Schema.String),
  /** Decimal strings, as the wire has them. */
  proxyUsedMb: Schema.String,
  proxyCostUsd: Schema.String,
  browserCostUsd: Schema.String,
  /** The agent session that opened it; null for a standalone one. */
  agentSessionId: Schema.NullOr(Schema.String),
  recordingUrl: Schema.NullOr(Schema.String)
})
export type BrowserSession = typeof BrowserSession.Type

const toBrowserSession = (wire: typeof WireBrowserSession.Type): BrowserSession => ({
  id: wire.id,
  status: wire.status,
  liveUrl: wire.liveUrl ?? null,
  cdpUrl: wire.cdpUrl ?? null,
  timeoutAt: wire.timeoutAt,
  startedAt: wire.startedAt,
  finishedAt: wire.finishedAt ?? null,
  proxyUsedMb: wire.proxyUsedMb ?? "0",
  proxyCostUsd: wire.proxyCost ?? "0",
  browserCostUsd: wire.browserCost ?? "0",
  agentSessionId: wire.agentSessionId ?? null,
  recordingUrl: wire.recordingUrl ?? null
})

/** A proxy of the user's own (CustomProxy). */
export interface CustomProxy {
  readonly host: string
  readonly port: number
  readonly username?: string | undefined
  readonly password?: Redacted.Redacted<string> | undefined
  readonly ignoreCertErrors?: boolean | undefined
}

export interface CreateBrowserSession {
  readonly profileId?: string | undefined
  /** A country of `proxyCountryCodes`, or null for no proxy; the service's default (us) when undefined. */
  readonly proxyCountryCode?: string | null | undefined
  readonly timeoutMinutes?: number | undefined
  readonly screenWidth?: number | undefined
  readonly screenHeight?: number | undefined
  readonly allowResizing?: boolean | undefined
  readonly customProxy?: CustomProxy | undefined
  readonly enableRecording?: boolean | undefined
}

/** Only the fields given: the service's defaults otherwise. */
const defined = (fields: Record<string, unknown>) => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined))

/** A custom proxy as the wire takes it (CustomProxy, also V4's `browserSettings.customProxy`): only the fields given. */
export const customProxyBody = (proxy: CustomProxy) =>
  defined({
    host: proxy.host,
    port: proxy.port,
    username: proxy.username,
    // Sent to Browser Use only, never kept in an output or error.
    password: proxy.password === undefined ? undefined : Redacted.value(proxy.password),
    ignoreCertErrors: proxy.ignoreCertErrors
  })

export const createBrowserSession = (client: ProviderClient.ProviderClient, request: CreateBrowserSession) =>
  Effect.map(
    client.json({
      method: "POST",
      path: "/browsers",
      body: ProviderRequest.jsonBody(defined({
        profileId: request.profileId,
        proxyCountryCode: request.proxyCountryCode,
        timeout: request.timeoutMinutes,
        browserScreenWidth: request.screenWidth,
        browserScreenHeight: request.screenHeight,
        allowResizing: request.allowResizing,
        enableRecording: request.enableRecording,
        customProxy: request.customProxy === undefined ? undefined : customProxyBody(request.customProxy)
      }))
    }, WireBrowserSession),
    toBrowserSession
  )

export const getBrowserSession = (client: ProviderClient.ProviderClient, sessionId: string) =>
  Effect.map(client.json({ method: "GET", path: path`/browsers/${sessionId}` }, WireBrowserSession), toBrowserSession)

/** Stops a browser session (`{"action": "stop"}`, which cannot be undone): unused time is refunded. */
export const stopBrowserSession = (client: ProviderClient.ProviderClient, sessionId: string) =>
  Effect.map(
    client.json({ method: "PATCH", path: path`/browsers/${sessionId}`, body: ProviderRequest.jsonBody({ action: "stop" }) }, WireBrowserSession),
    toBrowserSession
  )

const BrowserSessionPage = Schema.Struct({
  items: Schema.Array(WireBrowserSession),
  totalItems: Schema.Number,
  pageNumber: Schema.Number,
  pageSize: Schema.Number
})

/** The browser sessions, newest first, as a stream (`filterBy` a status): paged by `pageNumber`/`pageSize`, 100 at most. */
export const browserSessions = (
  client: ProviderClient.ProviderClient,
  options: { readonly status?: string | undefined; readonly maxItems?: number | undefined } = {}
) =>
  Pagination.pageNumber({ pageSize: 100, maxItems: options.maxItems }, (pageNumber, pageSize) =>
    Effect.map(
      client.json({ method: "GET", path: "/browsers", query: { pageNumber, pageSize, filterBy: options.status } }, BrowserSessionPage),
      (r) => ({ items: r.items.map(toBrowserSession), total: r.totalItems })
    ))

/** A file the browser downloaded (BrowserDownloadFile, without its short-lived URL); its size and date absent when left out. */
export const BrowserDownload = Schema.Struct({
  path: Schema.String,
  size: Schema.optional(Schema.Number),
  lastModified: Schema.optional(Schema.String)
})
export type BrowserDownload = typeof BrowserDownload.Type

const WireDownload = Schema.Struct({
  path: Schema.String,
  size: Schema.optional(Schema.Number),
  lastModified: Schema.optional(Schema.String),
  url: nullable(Schema.String)
})
const DownloadPage = Schema.Struct({ files: Schema.Array(WireDownload), nextCursor: nullable(Schema.String), hasMore: Schema.optional(Schema.Boolean) })

const downloadPages = (client: ProviderClient.ProviderClient, sessionId: string, includeUrls: boolean, maxItems?: number) =>
  Pagination.cursor({ pageSize: 100, maxItems }, (cursor, limit) =>
    Effect.map(
      client.json({ method: "GET", path: path`/browsers/${sessionId}/downloads`, query: { limit, cursor, includeUrls: includeUrls ? true : undefined } }, DownloadPage),
      (r) => ({ items: r.files, next: r.nextCursor })
    ))

/** The files a browser session downloaded, as a stream: paged by `nextCursor`, 100 at most per page. */
export const browserDownloads = (client: ProviderClient.ProviderClient, sessionId: string, maxItems?: number) =>
  Stream.map(downloadPages(client, sessionId, false, maxItems), ({ path, size, lastModified }): BrowserDownload => ({ path, size, lastModified }))

/** A browser session's download saved to a local path. */
export const DownloadedBrowserFile = Schema.Struct({
  path: Schema.String,
  size: Schema.Number,
  contentType: Schema.NullOr(Schema.String),
  downloadPath: Schema.String
})
export type DownloadedBrowserFile = typeof DownloadedBrowserFile.Type

/**
 * Downloads one of a browser session's files to `to`: found in the listing with its presigned
 * URL (the listing has no filter by path, so its pages are read until it comes), then streamed.
 */
export const downloadBrowserFile = (
  client: ProviderClient.ProviderClient,
  sessionId: string,
  filePath: string,
  options: SaveOptions
): Effect.Effect<DownloadedBrowserFile, ConnectorError.ConnectorError> =>
  Effect.flatMap(destination(options), (saving) =>
    Effect.flatMap(
      Stream.runHead(Stream.filter(downloadPages(client, sessionId, true), (file) => file.path === filePath && typeof file.url === "string")),
      Option.match({
        onNone: () =>
          Effect.fail(new ConnectorError.NotFound({ message: `no download ${filePath} in browser session ${sessionId}`, request: { method: "GET", path: `/browsers/${sessionId}/downloads` } })),
        onSome: (file) =>
          Effect.map(saveTo(client, file.url!, saving), (saved): DownloadedBrowserFile => ({ ...saved, downloadPath: file.path }))
      })
    ))
