/**
 * The simulator's HTTP vocabulary: Trello's errors (a status and a plain-text or JSON body),
 * the parameters of a request (query, form or JSON body, multipart fields, all one map, as
 * Trello reads them), the checks every route shares, and its routes (found by `@x/core/testing`'s PathRouter).
 */
import { PathRouter } from "@x/core/testing"
import { trelloIdPattern } from "../ids.js"

/** An error Trello answers with: a status and its plain-text (or JSON) body. */
export class HttpError {
  constructor(readonly status: number, readonly body: string | object) {}
}

export const notFound = () => new HttpError(404, "The requested resource was not found.")
export const invalid = (name: string) => new HttpError(400, `invalid value for ${name}`)
export const isId = (s: string) => trelloIdPattern.test(s)

/** What a route gets: its path parameters, the request's parameters, and an uploaded file. */
export interface Request {
  readonly method: string
  readonly path: Readonly<Record<string, string>>
  readonly p: Map<string, string>
  readonly file?: File | undefined
}

/** A route: a method, a path template below `/1` (`/cards/:id/labels`), and its handler. */
export interface Route {
  readonly method: "GET" | "POST" | "PUT" | "DELETE"
  readonly path: string
  readonly handle: (request: Request) => unknown
}

/** Finds the route of a request (`@x/core/testing`'s PathRouter: literal segments win over parameters). */
export const router = (routes: ReadonlyArray<Route>) => {
  const find = PathRouter.make<Omit<Request, "path">, unknown>(
    routes.map((route) => ({ method: route.method, path: route.path, handle: (path, request) => route.handle({ ...request, path }) })),
    (method, path) => {
      throw new HttpError(404, `Cannot ${method} /1${path}`)
    }
  )
  return (method: string, path: string, p: Map<string, string>, file?: File): unknown => find(method, path, { method, p, file })
}

export const { safeDecode } = PathRouter

/** A query and a form or JSON body, as one map of parameters (Trello reads them alike). */
export const params = (query: URLSearchParams, body: string, contentType: string | undefined) => {
  const out = new Map<string, string>(query)
  if (body !== "") {
    if (contentType?.includes("application/json")) {
      for (const [k, v] of Object.entries(JSON.parse(body) as Record<string, unknown>)) {
        // null clears a value (`due: null`), as the text "null" does in a query.
        if (v === undefined) continue
        if (v === null) out.set(k, "null")
        // An object (a card's `cover`, a custom field's `value`) is kept as its JSON, for its route to read.
        else if (typeof v === "object" && !Array.isArray(v)) out.set(k, JSON.stringify(v))
        else if (Array.isArray(v)) {
          // Ids as Trello takes them, comma-separated; objects (a custom field's options) as their JSON.
          out.set(k, v.some((item) => typeof item === "object" && item !== null) ? JSON.stringify(v) : v.join(","))
        } else out.set(k, String(v))
      }
    } else {
      for (const [k, v] of new URLSearchParams(body)) out.set(k, v)
    }
  }
  return out
}

export const required = (p: Map<string, string>, name: string) => {
  const value = p.get(name)
  if (value === undefined || value === "") throw invalid(name)
  return value
}

/** A date Trello parses, or "null"/"" to clear it; stored as Trello answers it (ISO). */
export const dateOf = (p: Map<string, string>, name: string): string | null | undefined => {
  const value = p.get(name)
  if (value === undefined) return undefined
  if (value === "" || value === "null") return null
  const time = Date.parse(value)
  if (Number.isNaN(time)) throw invalid(name)
  return new Date(time).toISOString()
}

export const booleanOf = (p: Map<string, string>, name: string): boolean | undefined => {
  const value = p.get(name)
  if (value === undefined) return undefined
  if (value !== "true" && value !== "false") throw invalid(name)
  return value === "true"
}

/** A text parameter within Trello's length limit (16384 by default). */
export const textOf = (p: Map<string, string>, name: string, max = 16384): string | undefined => {
  const value = p.get(name)
  if (value !== undefined && value.length > max) throw invalid(name)
  return value
}

/** An id parameter of this map, looked up: 400 `invalid id` when malformed, 404 when unknown. */
export const lookup = <A>(map: Map<string, A>, id: string): A => {
  if (!isId(id)) throw new HttpError(400, "invalid id")
  const found = map.get(id.toLowerCase())
  if (found === undefined) throw notFound()
  return found
}

/** Only `id` and the named fields, as Trello answers `?fields=a,b`. */
export const pick = (record: Record<string, unknown>, fields: string | undefined) => {
  if (fields === undefined || fields === "all") return record
  const out: Record<string, unknown> = { id: record["id"] }
  for (const field of fields.split(",")) if (field in record) out[field] = record[field]
  return out
}

/** A position: `top`, `bottom` or a positive number, given the positions already taken. */
export const positionOf = (p: Map<string, string>, taken: ReadonlyArray<number>, name = "pos"): number | undefined => {
  const value = p.get(name)
  if (value === undefined) return undefined
  if (value === "top") return taken.length === 0 ? 16384 : Math.min(...taken) / 2
  if (value === "bottom") return taken.length === 0 ? 16384 : Math.max(...taken) + 16384
  const n = Number(value)
  if (!Number.isFinite(n) || n < 0) throw invalid(name)
  return n
}
