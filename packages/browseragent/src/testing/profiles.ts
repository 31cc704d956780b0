/**
 * The simulated profiles, as far as sessions need them: the list (`GET /profiles`, paged by
 * `pageNumber`/`pageSize`, searched by `query`) that a session's profile dropdown reads, and the
 * profiles a session can load (an unknown one is a 404). Tests put profiles in `profiles`.
 */
import { integerQuery } from "./fastapi.js"

/** A profile (ProfileView). */
export interface SimulatedProfile {
  readonly id: string
  readonly name: string | null
  readonly userId: string | null
  readonly createdAt: string
  readonly updatedAt: string
  readonly lastUsedAt: string | null
  readonly cookieDomains: Array<string>
}

export const make = () => {
  const profiles = new Map<string, SimulatedProfile>()
  const route = (method: string, path: string, query: URLSearchParams): unknown => {
    if (path !== "/profiles" || method !== "GET") return undefined
    const pageSize = integerQuery(query, "pageSize", 10, 1, 100)
    const pageNumber = integerQuery(query, "pageNumber", 1, 1, Number.MAX_SAFE_INTEGER)
    const search = query.get("query")?.toLowerCase()
    const all = [...profiles.values()]
      .filter((p) => search === undefined || search === "" || [p.name, p.userId].some((v) => v?.toLowerCase().includes(search)))
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    return { items: all.slice((pageNumber - 1) * pageSize, pageNumber * pageSize), totalItems: all.length, pageNumber, pageSize }
  }
  return { profiles, route }
}
