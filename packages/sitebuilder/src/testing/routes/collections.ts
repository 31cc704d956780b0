/** Collections: a site's list, and one with its fields. */
import type { Route } from "../http.js"
import type { Store } from "../store.js"

export const routes = (store: Store): ReadonlyArray<Route> => [
  {
    method: "GET",
    path: "/sites/:site_id/collections",
    scope: "cms:read",
    handle: ({ path }) => {
      const site = store.site(path["site_id"]!)
      return { collections: [...store.collections.values()].filter((c) => c.siteId === site.id).map(store.collectionJson) }
    }
  },
  {
    method: "GET",
    path: "/collections/:collection_id",
    scope: "cms:read",
    handle: ({ path }) => store.collectionDetails(store.collection(path["collection_id"]!))
  }
]
