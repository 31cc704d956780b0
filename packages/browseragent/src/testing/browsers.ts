/**
 * The simulated `/browsers` endpoints of Browser Use v3: standalone browser sessions, `active`
 * from their start until they are stopped (`PATCH {"action": "stop"}`) or their `timeout`
 * (minutes, default 60; over 240 is 403) passes, then `stopped` with a `finishedAt` and no
 * more CDP or live URL. Browser time is charged upfront ($0.02/hour for the whole timeout) and
 * refunded down to the minutes used (at least one) once stopped. Their `cdpUrl` and `liveUrl`
 * point at the simulator but are not served: there is no browser to drive. A recorded session
 * (`enableRecording`) gets a presigned `recordingUrl` once stopped.
 *
 * Downloads live in the simulator's object storage (`downloads/sessions/<id>/<name>`), listed
 * in name order by `limit` and opaque `cursor`, with presigned GET URLs (15 minutes) when
 * `includeUrls=true`. With no browser to click anything, each session has downloaded one
 * file as it starts (`example.txt`); tests add others with `download`.
 *
 * New sessions are refused with 429 once `maxConcurrentSessions` browser sessions are active;
 * a `profileId` must be a profile (404 "Profile not found"), which is then marked used.
 */
import { randomUUID } from "node:crypto"
import { Detail, type Issue, Reply, booleanQuery, integerQuery, invalid, jsonObject, uuidPath } from "./fastapi.js"
import type { Profiles } from "./profiles.js"
import type { Storage } from "./storage.js"

export interface SimulatedBrowserSession {
  readonly id: string
  readonly startedAt: number
  readonly timeoutMinutes: number
  readonly profileId: string | null
  readonly proxyCountryCode: string | null
  readonly enableRecording: boolean
  /** When it was stopped; null while it runs (it may still have timed out since). */
  stoppedAt: number | null
}

export interface Browsers {
  readonly browsers: Map<string, SimulatedBrowserSession>
  /** Makes the browser session `id` have downloaded a file `name` (what a browser driven over CDP would do). */
  readonly download: (id: string, name: string, content: string | Uint8Array, contentType?: string) => void
  /** Answers a request to `/browsers…`; undefined for any other path. */
  readonly route: (method: string, path: string, query: URLSearchParams, raw: string) => unknown
}

/** How long the presigned download URLs last, as the service documents them. */
export const downloadUrlSeconds = 15 * 60
export const exampleDownload = { name: "example.txt", content: "Downloaded by the simulated browser.\n" }
const hourlyUsd = 0.02

const downloadKey = (id: string, name: string) => `downloads/sessions/${id}/${name}`
const recordingKey = (id: string) => `recordings/${id}.mp4`
const encodeCursor = (after: string) => Buffer.from(after, "utf8").toString("base64url")
const usd = (amount: number) => String(Number(amount.toFixed(6)))

/** CreateBrowserSessionRequest, checked as pydantic does: every issue at once. */
const createRequest = (body: Record<string, unknown>, countries: ReadonlySet<string>) => {
  const issues: Array<Issue> = []
  const at = (...loc: ReadonlyArray<string>) => ["body", ...loc]
  const integer = (value: unknown, loc: ReadonlyArray<string>, min: number, max: number) => {
    if (typeof value !== "number" || !Number.isInteger(value)) return void issues.push({ loc: at(...loc), msg: "Input should be a valid integer", type: "int_type" })
    if (value < min) issues.push({ loc: at(...loc), msg: `Input should be greater than or equal to ${min}`, type: "greater_than_equal" })
    if (value > max) issues.push({ loc: at(...loc), msg: `Input should be less than or equal to ${max}`, type: "less_than_equal" })
  }
  const bool = (field: string) => {
    if (body[field] !== undefined && typeof body[field] !== "boolean") issues.push({ loc: at(field), msg: "Input should be a valid boolean", type: "bool_type" })
  }
  const text = (value: unknown, loc: ReadonlyArray<string>, min: number) => {
    if (typeof value !== "string") issues.push({ loc: at(...loc), msg: "Input should be a valid string", type: "string_type" })
    else if (value.length < min) issues.push({ loc: at(...loc), msg: `String should have at least ${min} character`, type: "string_too_short" })
    else if (value.length > 255) issues.push({ loc: at(...loc), msg: "String should have at most 255 characters", type: "string_too_long" })
  }
  const { profileId = null, proxyCountryCode = "us", timeout = 60, browserScreenWidth = null, browserScreenHeight = null, customProxy = null } = body
  if (profileId !== null && (typeof profileId !== "string" || !/^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$/i.test(profileId))) {
    issues.push({ loc: at("profileId"), msg: "Input should be a valid UUID", type: "uuid_parsing" })
  }
  if (proxyCountryCode !== null && (typeof proxyCountryCode !== "string" || !countries.has(proxyCountryCode))) {
    issues.push({ loc: at("proxyCountryCode"), msg: "Input should be a valid country code", type: "enum" })
  }
  if (typeof timeout !== "number" || !Number.isInteger(timeout)) issues.push({ loc: at("timeout"), msg: "Input should be a valid integer", type: "int_type" })
  else if (timeout < 1) issues.push({ loc: at("timeout"), msg: "Input should be greater than or equal to 1", type: "greater_than_equal" })
  if (browserScreenWidth !== null) integer(browserScreenWidth, ["browserScreenWidth"], 320, 6144)
  if (browserScreenHeight !== null) integer(browserScreenHeight, ["browserScreenHeight"], 320, 3456)
  bool("allowResizing")
  bool("enableRecording")
  if (customProxy !== null) {
    if (typeof customProxy !== "object" || Array.isArray(customProxy)) {
      issues.push({ loc: at("customProxy"), msg: "Input should be a valid dictionary or object to extract fields from", type: "model_attributes_type" })
    } else {
      const proxy = customProxy as Record<string, unknown>
      if (proxy["host"] === undefined) issues.push({ loc: at("customProxy", "host"), msg: "Field required", type: "missing" })
      else text(proxy["host"], ["customProxy", "host"], 1)
      if (proxy["port"] === undefined) issues.push({ loc: at("customProxy", "port"), msg: "Field required", type: "missing" })
      else integer(proxy["port"], ["customProxy", "port"], 1, 65_535)
      for (const field of ["username", "password"]) if (proxy[field] !== undefined && proxy[field] !== null) text(proxy[field], ["customProxy", field], 1)
      if (proxy["ignoreCertErrors"] !== undefined && typeof proxy["ignoreCertErrors"] !== "boolean") {
        issues.push({ loc: at("customProxy", "ignoreCertErrors"), msg: "Input should be a valid boolean", type: "bool_type" })
      }
    }
  }
  if (issues.length > 0) throw invalid(...issues)
  return {
    profileId: profileId === null ? null : (profileId as string).toLowerCase(),
    proxyCountryCode: proxyCountryCode as string | null,
    timeoutMinutes: timeout as number,
    enableRecording: body["enableRecording"] === true
  }
}

export const make = (options: {
  readonly storage: Storage
  readonly profiles: Profiles
  readonly origin: () => string
  readonly now: () => number
  readonly maxConcurrentSessions: () => number
  readonly countries: ReadonlyArray<string>
}): Browsers => {
  const { storage, profiles, now } = options
  const countries = new Set(options.countries)
  const browsers = new Map<string, SimulatedBrowserSession>()

  /** When it stopped (by request or by its timeout), or null while it is active. */
  const finishedAt = (b: SimulatedBrowserSession, at: number): number | null => {
    const timeoutAt = b.startedAt + b.timeoutMinutes * 60_000
    if (b.stoppedAt !== null) return Math.min(b.stoppedAt, timeoutAt)
    return at >= timeoutAt ? timeoutAt : null
  }

  const view = (b: SimulatedBrowserSession) => {
    const at = now()
    const finished = finishedAt(b, at)
    const charged = hourlyUsd * b.timeoutMinutes / 60
    const usedMinutes = finished === null ? b.timeoutMinutes : Math.min(b.timeoutMinutes, Math.max(1, Math.ceil((finished - b.startedAt) / 60_000)))
    const cdpUrl = `${options.origin().replace(/^http/, "ws")}/cdp/${b.id}`
    let recordingUrl: string | null = null
    if (finished !== null && b.enableRecording) {
      if (!storage.objects.has(recordingKey(b.id))) {
        storage.objects.set(recordingKey(b.id), { bytes: Buffer.from("simulated recording"), contentType: "video/mp4", lastModified: finished, etag: `"${b.id.replace(/-/g, "")}"` })
      }
      recordingUrl = storage.presignGet(recordingKey(b.id), downloadUrlSeconds)
    }
    return {
      id: b.id,
      status: finished === null ? "active" : "stopped",
      liveUrl: finished === null ? `https://live.browser-use.com?wss=${encodeURIComponent(cdpUrl)}` : null,
      cdpUrl: finished === null ? cdpUrl : null,
      timeoutAt: new Date(b.startedAt + b.timeoutMinutes * 60_000).toISOString(),
      startedAt: new Date(b.startedAt).toISOString(),
      finishedAt: finished === null ? null : new Date(finished).toISOString(),
      proxyUsedMb: "0",
      proxyCost: "0",
      browserCost: usd(finished === null ? charged : hourlyUsd * usedMinutes / 60),
      agentSessionId: null,
      recordingUrl
    }
  }

  const find = (id: string) => {
    const browser = browsers.get(id)
    if (browser === undefined) throw new Detail(404, "Session not found")
    return browser
  }

  const download = (id: string, name: string, content: string | Uint8Array, contentType = "application/octet-stream") => {
    const bytes = Buffer.from(content)
    storage.objects.set(downloadKey(id, name), { bytes, contentType, lastModified: now(), etag: `"${bytes.length.toString(16).padStart(32, "0")}"` })
  }

  const create = (raw: string) => {
    const body = jsonObject(raw)
    const request = createRequest(body, countries)
    if (request.timeoutMinutes > 240) throw new Detail(403, "Maximum session timeout is 4 hours (240 minutes).")
    const profile = request.profileId === null ? undefined : profiles.find(request.profileId)
    const at = now()
    const active = [...browsers.values()].filter((b) => finishedAt(b, at) === null).length
    if (active >= options.maxConcurrentSessions()) {
      throw new Detail(429, "Too many concurrent active sessions. Please wait for one to finish, kill one, or upgrade your plan.")
    }
    const browser: SimulatedBrowserSession = { id: randomUUID(), startedAt: at, stoppedAt: null, ...request }
    browsers.set(browser.id, browser)
    if (profile !== undefined) profile.lastUsedAt = at
    download(browser.id, exampleDownload.name, exampleDownload.content, "text/plain")
    return new Reply(201, view(browser))
  }

  const listDownloads = (id: string, query: URLSearchParams) => {
    const limit = integerQuery(query, "limit", 50, 1, 100)
    const includeUrls = booleanQuery(query, "includeUrls")
    const cursor = query.get("cursor")
    let after = ""
    if (cursor !== null && cursor !== "") {
      after = Buffer.from(cursor, "base64url").toString("utf8")
      if (encodeCursor(after) !== cursor) throw invalid({ loc: ["query", "cursor"], msg: "Invalid cursor", type: "value_error" })
    }
    const browser = find(id)
    const root = downloadKey(browser.id, "")
    const names = [...storage.objects.keys()].filter((key) => key.startsWith(root)).map((key) => key.slice(root.length)).sort()
    const rest = names.filter((name) => name > after)
    const page = rest.slice(0, limit)
    const hasMore = rest.length > limit
    return {
      files: page.map((name) => {
        const object = storage.objects.get(downloadKey(browser.id, name))!
        return {
          path: name,
          size: object.bytes.length,
          lastModified: new Date(object.lastModified).toISOString(),
          url: includeUrls ? storage.presignGet(downloadKey(browser.id, name), downloadUrlSeconds) : null
        }
      }),
      nextCursor: hasMore ? encodeCursor(page.at(-1)!) : null,
      hasMore
    }
  }

  const route = (method: string, path: string, query: URLSearchParams, raw: string): unknown => {
    if (path === "/browsers") {
      if (method === "POST") return create(raw)
      if (method === "GET") {
        const pageSize = integerQuery(query, "pageSize", 10, 1, 100)
        const pageNumber = integerQuery(query, "pageNumber", 1, 1, Number.MAX_SAFE_INTEGER)
        const filterBy = query.get("filterBy")
        if (filterBy !== null && filterBy !== "active" && filterBy !== "stopped") {
          throw invalid({ loc: ["query", "filterBy"], msg: "Input should be 'active' or 'stopped'", type: "enum" })
        }
        const all = [...browsers.values()]
          .sort((a, b) => b.startedAt - a.startedAt || (a.id < b.id ? -1 : 1))
          .map(view)
          .filter((b) => filterBy === null || b.status === filterBy)
        return { items: all.slice((pageNumber - 1) * pageSize, pageNumber * pageSize), totalItems: all.length, pageNumber, pageSize }
      }
      throw new Detail(405, "Method Not Allowed")
    }
    const match = /^\/browsers\/([^/]+)(\/downloads)?$/.exec(path)
    if (match === null) return undefined
    const id = uuidPath(decodeURIComponent(match[1]!), "session_id")
    if (match[2] !== undefined) {
      if (method === "GET") return listDownloads(id, query)
    } else {
      if (method === "GET") return view(find(id))
      if (method === "PATCH") {
        const body = jsonObject(raw)
        if (body["action"] === undefined) throw invalid({ loc: ["body", "action"], msg: "Field required", type: "missing" })
        if (body["action"] !== "stop") throw invalid({ loc: ["body", "action"], msg: "Input should be 'stop'", type: "enum" })
        const browser = find(id)
        // Stopping a stopped session changes nothing.
        if (finishedAt(browser, now()) === null) browser.stoppedAt = now()
        return view(browser)
      }
    }
    throw new Detail(405, "Method Not Allowed")
  }

  return { browsers, download, route }
}
