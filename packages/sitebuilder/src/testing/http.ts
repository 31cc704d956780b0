/**
 * The simulator's HTTP vocabulary: Webflow's errors (`{code, message, externalReference,
 * details}`), answers other than 200, the checks every route shares (ids, paging), and its
 * routes: a method, a path template below `/v2`, the OAuth scope the spec gives the endpoint,
 * and a handler (found by `@x/core/testing`'s PathRouter).
 */
import { webflowIdPattern } from "../ids.js"

/** An error as Webflow answers it: a status, a code, a message and its details. */
export class ApiError {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly message: string,
    readonly details: ReadonlyArray<unknown> = [],
    /** Headers of the answer (a 429's `Retry-After`). */
    readonly headers: Readonly<Record<string, string>> = {}
  ) {}
}

/** A 400 `validation_error` naming each problem (`{param, description}`). */
export const invalid = (details: ReadonlyArray<{ readonly param: string; readonly description: string }>) =>
  new ApiError(400, "validation_error", "Validation Error", details)

/** A 404 of this code ("item_not_found") naming what was not found ("Item"). */
export const notFound = (code: string, what: string) => new ApiError(404, code, `Requested resource not found: ${what} not found`)

/** An answer whose status is not 200: 201 created, 202 accepted, 204 no content. */
export class Answer {
  constructor(readonly status: number, readonly body?: unknown) {}
}
export const created = (body: unknown) => new Answer(201, body)
export const accepted = (body: unknown) => new Answer(202, body)
export const noContent = () => new Answer(204)

export const isObjectId = (s: string) => webflowIdPattern.test(s)

/** A path parameter that must be an objectid (`site_id`, `item_id`, …): 400 otherwise. */
export const objectIdOf = (value: string, param: string) => {
  if (!isObjectId(value)) throw invalid([{ param, description: "invalid id" }])
  return value
}

/** `offset` and `limit` (1–100, default 100) of a list request. */
export const pageOf = (query: URLSearchParams) => {
  const offset = Number(query.get("offset") ?? 0)
  const limit = Number(query.get("limit") ?? 100)
  if (!Number.isInteger(offset) || offset < 0) throw invalid([{ param: "offset", description: "must be a non-negative integer" }])
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw invalid([{ param: "limit", description: "must be between 1 and 100" }])
  return { offset, limit }
}

/** One page of a list, as Webflow answers lists: `{[key]: […], pagination: {limit, offset, total}}`. */
export const paged = <A>(key: string, all: ReadonlyArray<A>, query: URLSearchParams, json: (a: A) => unknown) => {
  const { limit, offset } = pageOf(query)
  return { [key]: all.slice(offset, offset + limit).map(json), pagination: { limit, offset, total: all.length } }
}

/** A required text field of a JSON body: 400 naming it otherwise. */
export const textOf = (body: Readonly<Record<string, unknown>>, param: string) => {
  const value = body[param]
  if (typeof value !== "string" || value === "") throw invalid([{ param, description: "Field is required" }])
  return value
}

/** What a route gets: its path parameters by name, the query, and the JSON body (`{}` when none). */
export interface Request {
  readonly path: Readonly<Record<string, string>>
  readonly query: URLSearchParams
  readonly body: Readonly<Record<string, unknown>>
}

/** A route: a method, a path template below `/v2` (`/collections/:collection_id/items`), its scope, and its handler. */
export interface Route {
  readonly method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE"
  readonly path: string
  /** The OAuth scope the token needs (the spec's `security`); undefined: any token. */
  readonly scope: string | undefined
  readonly handle: (request: Request) => unknown
}
