/**
 * A site's 301 redirects: the list (one answer, with its `pagination`: the operation takes no
 * paging parameters), one created (200, as the document says), changed, and deleted (answered
 * with the redirects left). A path redirected twice, or a redirect to itself, is a 400.
 */
import { invalid, notFound, type Route } from "../http.js"
import type { Redirect } from "../siteCode.js"
import { objectId, type Store } from "../store.js"

const urlOf = (body: Readonly<Record<string, unknown>>, param: "fromUrl" | "toUrl", required: boolean) => {
  const value = body[param]
  if (value === undefined && !required) return undefined
  if (typeof value !== "string" || value === "") throw invalid([{ param, description: "Field is required" }])
  const valid = param === "fromUrl" ? /^\/\S*$/.test(value) : /^(?:\/|https?:\/\/)\S*$/.test(value)
  if (!valid) throw invalid([{ param, description: param === "fromUrl" ? "must be a path starting with /" : "must be a path starting with / or an http(s) URL" }])
  return value
}

export const routes = (store: Store): ReadonlyArray<Route> => {
  const { redirectJson, redirects } = store.siteCode
  const ofSite = (siteId: string) => [...redirects.values()].filter((r) => r.siteId === siteId)
  const list = (siteId: string) => {
    const all = ofSite(siteId)
    return { redirects: all.map(redirectJson), pagination: { limit: Math.max(100, all.length), offset: 0, total: all.length } }
  }
  const redirectOf = (siteId: string, id: string) => {
    const found = redirects.get(id)
    if (found === undefined || found.siteId !== siteId) throw notFound("resource_not_found", "Redirect")
    return found
  }
  /** A path is redirected once per site; a redirect to itself loops. */
  const check = (redirect: Redirect) => {
    if (redirect.fromUrl === redirect.toUrl) throw invalid([{ param: "toUrl", description: "must differ from fromUrl" }])
    if (ofSite(redirect.siteId).some((r) => r.id !== redirect.id && r.fromUrl === redirect.fromUrl)) {
      throw invalid([{ param: "fromUrl", description: `${redirect.fromUrl} is redirected already` }])
    }
  }
  return [
    { method: "GET", path: "/sites/:site_id/redirects", scope: "sites:read", handle: ({ path }) => list(store.site(path["site_id"]!).id) },
    {
      method: "POST",
      path: "/sites/:site_id/redirects",
      scope: "sites:write",
      handle: ({ body, path }) => {
        const site = store.site(path["site_id"]!)
        const redirect = { id: objectId(), siteId: site.id, fromUrl: urlOf(body, "fromUrl", true)!, toUrl: urlOf(body, "toUrl", true)! }
        check(redirect)
        redirects.set(redirect.id, redirect)
        return redirectJson(redirect)
      }
    },
    {
      method: "PATCH",
      path: "/sites/:site_id/redirects/:redirect_id",
      scope: "sites:write",
      handle: ({ body, path }) => {
        const site = store.site(path["site_id"]!)
        const redirect = redirectOf(site.id, path["redirect_id"]!)
        const changed = { ...redirect, fromUrl: urlOf(body, "fromUrl", false) ?? redirect.fromUrl, toUrl: urlOf(body, "toUrl", false) ?? redirect.toUrl }
        check(changed)
        Object.assign(redirect, changed)
        return redirectJson(redirect)
      }
    },
    {
      method: "DELETE",
      path: "/sites/:site_id/redirects/:redirect_id",
      scope: "sites:write",
      handle: ({ path }) => {
        const site = store.site(path["site_id"]!)
        redirects.delete(redirectOf(site.id, path["redirect_id"]!).id)
        return list(site.id)
      }
    }
  ]
}
