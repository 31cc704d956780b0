/** Sites: `GET /sites`. */
import type { Route } from "../http.js"
import type { Store } from "../store.js"

export const routes = (store: Store): ReadonlyArray<Route> => [
  { method: "GET", path: "/sites", scope: "sites:read", handle: () => ({ sites: [...store.sites.values()].map(store.siteJson) }) }
]
