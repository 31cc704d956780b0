/**
 * Site users (memberships) and access groups: listed (paged and sorted, the total at the top of
 * the answer as Webflow's user lists have it), read, invited (`user_account_added`), deleted
 * (`user_account_deleted`). A site without user accounts answers 403 `users_not_enabled`; an
 * email already a user's, 409 `duplicate_user_email`; an access group slug the site lacks, 400.
 */
import { ApiError, invalid, noContent, pageOf, type Route } from "../http.js"
import { objectId, type SiteUser, type Store } from "../store.js"

/** The keys users sort by. */
const sortKey: Readonly<Record<string, (u: SiteUser) => string>> = {
  CreatedOn: (u) => u.createdOn,
  Email: (u) => String(u.data["email"] ?? ""),
  Status: (u) => u.status,
  LastLogin: (u) => u.lastLogin ?? "",
  UpdatedOn: (u) => u.lastUpdated
}
const email = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** `sort` of a list: a key, `-` first for descending; 400 for another. */
const sorted = <A>(all: Array<A>, sort: string | null, keys: Readonly<Record<string, (a: A) => string>>) => {
  if (sort === null) return all
  const key = keys[sort.replace(/^-/, "")]
  if (key === undefined) {
    const allowed = Object.keys(keys).flatMap((k) => [k, `-${k}`]).join(", ")
    throw invalid([{ param: "sort", description: `must be one of ${allowed}` }])
  }
  const direction = sort.startsWith("-") ? -1 : 1
  return all.sort((a, b) => direction * key(a).localeCompare(key(b)))
}

/** One page of a list whose total is at the top: `{[key]: […], count, limit, offset, total}`. */
const pagedAtTop = <A>(key: string, all: ReadonlyArray<A>, query: URLSearchParams, json: (a: A) => unknown) => {
  const { limit, offset } = pageOf(query)
  const page = all.slice(offset, offset + limit).map(json)
  return { count: page.length, limit, offset, total: all.length, [key]: page }
}

export const routes = (store: Store): ReadonlyArray<Route> => [
  {
    method: "GET",
    path: "/sites/:site_id/users",
    scope: "users:read",
    handle: ({ path, query }) => {
      const site = store.membershipSite(path["site_id"]!)
      const all = [...store.siteUsers.values()].filter((u) => u.siteId === site.id)
      return pagedAtTop("users", sorted(all, query.get("sort"), sortKey), query, store.siteUserJson)
    }
  },
  {
    method: "GET",
    path: "/sites/:site_id/users/:user_id",
    scope: "users:read",
    handle: ({ path }) => store.siteUserJson(store.siteUser(store.membershipSite(path["site_id"]!), path["user_id"]!))
  },
  {
    method: "DELETE",
    path: "/sites/:site_id/users/:user_id",
    scope: "users:write",
    handle: ({ path }) => {
      const site = store.membershipSite(path["site_id"]!)
      const user = store.siteUser(site, path["user_id"]!)
      store.siteUsers.delete(user.id)
      store.emit(site.id, "user_account_deleted", store.siteUserPayload(user))
      return noContent()
    }
  },
  {
    method: "POST",
    path: "/sites/:site_id/users/invite",
    scope: "users:write",
    handle: ({ body, path }) => {
      const site = store.membershipSite(path["site_id"]!)
      const address = body["email"]
      if (typeof address !== "string" || !email.test(address)) throw invalid([{ param: "email", description: "Invalid email address" }])
      const groups = body["accessGroups"] ?? []
      if (!Array.isArray(groups) || groups.some((slug) => typeof slug !== "string")) {
        throw invalid([{ param: "accessGroups", description: "must be an array of access group slugs" }])
      }
      const slugs = new Set([...store.accessGroups.values()].filter((g) => g.siteId === site.id).map((g) => g.slug))
      const unknown = (groups as ReadonlyArray<string>).filter((slug) => !slugs.has(slug))
      if (unknown.length > 0) throw invalid(unknown.map((slug) => ({ param: "accessGroups", description: `Access group not found: ${slug}` })))
      const taken = [...store.siteUsers.values()].some((u) => u.siteId === site.id && String(u.data["email"]).toLowerCase() === address.toLowerCase())
      if (taken) throw new ApiError(409, "duplicate_user_email", "A user with this email already exists")
      const at = new Date().toISOString()
      const user: SiteUser = {
        id: objectId(), siteId: site.id, status: "invited", createdOn: at, lastUpdated: at, invitedOn: at, lastLogin: null,
        accessGroups: [...new Set(groups as ReadonlyArray<string>)].map((slug) => ({ slug, type: "admin" })),
        data: { email: address, "accept-privacy": false, "accept-communications": false }
      }
      store.siteUsers.set(user.id, user)
      store.emit(site.id, "user_account_added", store.siteUserPayload(user))
      return store.siteUserJson(user)
    }
  },
  {
    method: "GET",
    path: "/sites/:site_id/accessgroups",
    scope: "users:read",
    handle: ({ path, query }) => {
      const site = store.membershipSite(path["site_id"]!)
      const all = [...store.accessGroups.values()].filter((g) => g.siteId === site.id)
      return pagedAtTop("accessGroups", sorted(all, query.get("sort"), { CreatedOn: (g) => g.createdOn }), query, store.accessGroupJson)
    }
  }
]
