/**
 * Sites: the list, one site, its custom domains, and publishing it. A publish (one a minute per
 * site, as Webflow queues them: else 429 with `Retry-After`) copies every staged item of the
 * site's collections to live (drafts and archived items stay unpublished), stamps the site and
 * the custom domains published to, and emits `site_publish`.
 */
import { accepted, ApiError, invalid, type Route } from "../http.js"
import type { Store } from "../store.js"

export const routes = (store: Store): ReadonlyArray<Route> => [
  { method: "GET", path: "/sites", scope: "sites:read", handle: () => ({ sites: [...store.sites.values()].map(store.siteJson) }) },
  { method: "GET", path: "/sites/:site_id", scope: "sites:read", handle: ({ path }) => store.siteJson(store.site(path["site_id"]!)) },
  {
    method: "GET",
    path: "/sites/:site_id/custom_domains",
    scope: "sites:read",
    handle: ({ path }) => {
      const site = store.site(path["site_id"]!)
      return { customDomains: [...store.customDomains.values()].filter((d) => d.siteId === site.id).map(store.customDomainJson) }
    }
  },
  {
    method: "POST",
    path: "/sites/:site_id/publish",
    scope: "sites:write",
    handle: ({ body, path }) => {
      const site = store.site(path["site_id"]!)
      const { customDomains = [], publishToWebflowSubdomain = false } = body
      if (!Array.isArray(customDomains) || customDomains.some((id) => typeof id !== "string")) {
        throw invalid([{ param: "customDomains", description: "Expected an array of custom domain ids" }])
      }
      if (typeof publishToWebflowSubdomain !== "boolean") throw invalid([{ param: "publishToWebflowSubdomain", description: "Expected a boolean" }])
      const domains = (customDomains as ReadonlyArray<string>).map((id) => {
        const domain = store.customDomains.get(id)
        if (domain === undefined || domain.siteId !== site.id) throw new ApiError(400, "invalid_domain", `Invalid domain: ${id} is not a custom domain of this site`)
        return domain
      })
      if (domains.length === 0 && !publishToWebflowSubdomain) throw new ApiError(400, "no_domains", "No domains to publish to")
      const last = store.publishedAt.get(site.id)
      const nowMs = Date.now()
      if (last !== undefined && nowMs - last < store.publishing.intervalMs) {
        const wait = Math.max(1, Math.ceil((last + store.publishing.intervalMs - nowMs) / 1000))
        throw new ApiError(429, "too_many_requests", "Too many requests: a site can be published once a minute", [], { "retry-after": String(wait) })
      }
      store.publishedAt.set(site.id, nowMs)
      const now = new Date(nowMs).toISOString()
      const collections = new Set([...store.collections.values()].filter((c) => c.siteId === site.id).map((c) => c.id))
      for (const item of store.items.values()) {
        if (!collections.has(item.collectionId) || item.isDraft || item.isArchived) continue
        item.live = { fieldData: structuredClone(item.fieldData), lastUpdated: item.lastUpdated }
        item.lastPublished = now
      }
      site.lastPublished = now
      for (const domain of domains) domain.lastPublished = now
      store.emit(site.id, "site_publish", {
        siteId: site.id,
        publishedOn: now,
        domains: [...domains.map((d) => d.url), ...(publishToWebflowSubdomain ? [`${site.shortName}.webflow.io`] : [])],
        publishedBy: { displayName: "Data API" }
      })
      return accepted({ customDomains: domains.map(store.customDomainJson), publishToWebflowSubdomain })
    }
  }
]
