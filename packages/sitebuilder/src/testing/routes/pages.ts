/**
 * Pages: a site's pages (paged), one page's metadata, its update (`PUT /pages/{id}`, which
 * emits `page_metadata_updated`); and what only Webflow's Designer does, `createPage` and
 * `deletePage` (simulator methods: `page_created`, `page_deleted`).
 */
import { invalid, paged, type Route } from "../http.js"
import { objectId, type Page, type Store } from "../store.js"

const slugPattern = /^[a-z0-9][a-z0-9-]*$/

const slugTaken = (store: Store, siteId: string, slug: string, except?: string) =>
  [...store.pages.values()].some((p) => p.siteId === siteId && p.slug === slug && p.id !== except)

/** A page made in the Designer: `{title, slug}` (slug from the title by default). */
export const createPage = (store: Store) => (siteId: string, page: { readonly title: string; readonly slug?: string }) => {
  const site = store.site(siteId)
  const slug = page.slug ?? page.title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "")
  if (page.title === "") throw invalid([{ param: "title", description: "Field is required" }])
  if (!slugPattern.test(slug)) throw invalid([{ param: "slug", description: "Slug must contain only lowercase letters, numbers and hyphens" }])
  if (slugTaken(store, site.id, slug)) throw invalid([{ param: "slug", description: "Slug is already in use" }])
  const now = new Date().toISOString()
  const made: Page = {
    id: objectId(), siteId: site.id, title: page.title, slug, createdOn: now, lastUpdated: now, draft: false, archived: false,
    seo: { title: page.title, description: "" },
    openGraph: { title: "", titleCopied: true, description: "", descriptionCopied: true }
  }
  store.pages.set(made.id, made)
  store.emit(site.id, "page_created", store.pagePayload(made, { createdOn: now }))
  return store.pageJson(made)
}

/** A page deleted in the Designer. */
export const deletePage = (store: Store) => (pageId: string) => {
  const page = store.page(pageId)
  store.pages.delete(page.id)
  store.emit(page.siteId, "page_deleted", store.pagePayload(page, { deletedOn: new Date().toISOString() }))
}

const text = (value: unknown, param: string, details: Array<{ param: string; description: string }>) => {
  if (value !== undefined && typeof value !== "string") details.push({ param, description: "Expected a string" })
  return value as string | undefined
}
const flag = (value: unknown, param: string, details: Array<{ param: string; description: string }>) => {
  if (value !== undefined && typeof value !== "boolean") details.push({ param, description: "Expected a boolean" })
  return value as boolean | undefined
}
const object = (value: unknown, param: string, details: Array<{ param: string; description: string }>) => {
  if (value === undefined) return {}
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    details.push({ param, description: "Expected an object" })
    return {}
  }
  return value as Record<string, unknown>
}

export const routes = (store: Store): ReadonlyArray<Route> => [
  {
    method: "GET",
    path: "/sites/:site_id/pages",
    scope: "pages:read",
    handle: ({ path, query }) => {
      const site = store.site(path["site_id"]!)
      return paged("pages", [...store.pages.values()].filter((p) => p.siteId === site.id), query, store.pageJson)
    }
  },
  { method: "GET", path: "/pages/:page_id", scope: "pages:read", handle: ({ path }) => store.pageJson(store.page(path["page_id"]!)) },
  {
    method: "PUT",
    path: "/pages/:page_id",
    scope: "pages:write",
    handle: ({ body, path }) => {
      const page = store.page(path["page_id"]!)
      const details: Array<{ param: string; description: string }> = []
      const title = text(body["title"], "title", details)
      const slug = text(body["slug"], "slug", details)
      const seo = object(body["seo"], "seo", details)
      const og = object(body["openGraph"], "openGraph", details)
      const update = {
        seoTitle: text(seo["title"], "seo.title", details),
        seoDescription: text(seo["description"], "seo.description", details),
        ogTitle: text(og["title"], "openGraph.title", details),
        ogTitleCopied: flag(og["titleCopied"], "openGraph.titleCopied", details),
        ogDescription: text(og["description"], "openGraph.description", details),
        ogDescriptionCopied: flag(og["descriptionCopied"], "openGraph.descriptionCopied", details)
      }
      if (title === "") details.push({ param: "title", description: "Field is required" })
      if (slug !== undefined && typeof slug === "string") {
        if (page.slug === "") details.push({ param: "slug", description: "The home page's slug cannot be changed" })
        else if (!slugPattern.test(slug)) details.push({ param: "slug", description: "Slug must contain only lowercase letters, numbers and hyphens" })
        else if (slugTaken(store, page.siteId, slug, page.id)) details.push({ param: "slug", description: "Slug is already in use" })
      }
      if (details.length > 0) throw invalid(details)
      if (title !== undefined) page.title = title
      if (slug !== undefined) page.slug = slug
      if (update.seoTitle !== undefined) page.seo.title = update.seoTitle
      if (update.seoDescription !== undefined) page.seo.description = update.seoDescription
      // A title or description given is the page's own; `…Copied` says whether the SEO one is used instead.
      if (update.ogTitle !== undefined) page.openGraph = { ...page.openGraph, title: update.ogTitle, titleCopied: false }
      if (update.ogTitleCopied !== undefined) page.openGraph.titleCopied = update.ogTitleCopied
      if (update.ogDescription !== undefined) page.openGraph = { ...page.openGraph, description: update.ogDescription, descriptionCopied: false }
      if (update.ogDescriptionCopied !== undefined) page.openGraph.descriptionCopied = update.ogDescriptionCopied
      page.lastUpdated = new Date().toISOString()
      store.emit(page.siteId, "page_metadata_updated", store.pagePayload(page, { lastUpdated: page.lastUpdated }))
      return store.pageJson(page)
    }
  }
]
