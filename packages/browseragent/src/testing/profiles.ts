/**
 * The simulated `/profiles` endpoints of Browser Use v3: create (201, the body optional),
 * get, update (the fields given; null clears one), list by `pageNumber`/`pageSize` newest
 * first with `query` matching a name or user id, delete (204); 404 "Profile not found" for an
 * unknown id. A browser session started with a profile marks it used (`lastUsedAt`).
 */
import { randomUUID } from "node:crypto"
import { Detail, integerQuery, invalid, jsonObject, Reply, uuidPath } from "./fastapi.js"

export interface SimulatedProfile {
  readonly id: string
  name: string | null
  userId: string | null
  lastUsedAt: number | null
  readonly createdAt: number
  updatedAt: number
  cookieDomains: Array<string>
}

export interface Profiles {
  readonly profiles: Map<string, SimulatedProfile>
  /** The profile of this id, or a 404 "Profile not found". */
  readonly find: (id: string) => SimulatedProfile
  /** Answers a request to `/profiles…`; undefined for any other path. */
  readonly route: (method: string, path: string, query: URLSearchParams, raw: string) => unknown
}

/** An optional text field of ProfileCreateRequest/ProfileUpdateRequest, checked as pydantic does. */
const text = (body: Record<string, unknown>, field: string, max: number): string | null | undefined => {
  const value = body[field]
  if (value === undefined || value === null) return value
  if (typeof value !== "string") throw invalid({ loc: ["body", field], msg: "Input should be a valid string", type: "string_type" })
  if (value.length > max) throw invalid({ loc: ["body", field], msg: `String should have at most ${max} characters`, type: "string_too_long" })
  return value
}

export const make = (now: () => number): Profiles => {
  const profiles = new Map<string, SimulatedProfile>()
  const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString())
  const view = (p: SimulatedProfile) => ({
    id: p.id,
    userId: p.userId,
    name: p.name,
    lastUsedAt: iso(p.lastUsedAt),
    createdAt: iso(p.createdAt),
    updatedAt: iso(p.updatedAt),
    cookieDomains: p.cookieDomains
  })
  const find = (id: string) => {
    const profile = profiles.get(id)
    if (profile === undefined) throw new Detail(404, "Profile not found")
    return profile
  }

  const route = (method: string, path: string, query: URLSearchParams, raw: string): unknown => {
    if (path === "/profiles") {
      if (method === "POST") {
        const body = jsonObject(raw, false)
        const name = text(body, "name", 100) ?? null
        const userId = text(body, "userId", 255) ?? null
        const at = now()
        const profile: SimulatedProfile = { id: randomUUID(), name, userId, lastUsedAt: null, createdAt: at, updatedAt: at, cookieDomains: [] }
        profiles.set(profile.id, profile)
        return new Reply(201, view(profile))
      }
      if (method === "GET") {
        const pageSize = integerQuery(query, "pageSize", 10, 1, 100)
        const pageNumber = integerQuery(query, "pageNumber", 1, 1, Number.MAX_SAFE_INTEGER)
        const search = query.get("query")
        if (search !== null && search.length > 200) throw invalid({ loc: ["query", "query"], msg: "String should have at most 200 characters", type: "string_too_long" })
        const needle = search?.toLowerCase() ?? ""
        const all = [...profiles.values()]
          .filter((p) => needle === "" || [p.name, p.userId].some((field) => field?.toLowerCase().includes(needle)))
          .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1))
        return { items: all.slice((pageNumber - 1) * pageSize, pageNumber * pageSize).map(view), totalItems: all.length, pageNumber, pageSize }
      }
      throw new Detail(405, "Method Not Allowed")
    }
    const match = /^\/profiles\/([^/]+)$/.exec(path)
    if (match === null) return undefined
    const id = uuidPath(decodeURIComponent(match[1]!), "profile_id")
    if (method === "GET") return view(find(id))
    if (method === "PATCH") {
      const body = jsonObject(raw)
      const name = text(body, "name", 100)
      const userId = text(body, "userId", 255)
      const profile = find(id)
      if (name !== undefined) profile.name = name
      if (userId !== undefined) profile.userId = userId
      profile.updatedAt = now()
      return view(profile)
    }
    if (method === "DELETE") {
      profiles.delete(find(id).id)
      return new Reply(204)
    }
    throw new Detail(405, "Method Not Allowed")
  }

  return { profiles, find, route }
}
