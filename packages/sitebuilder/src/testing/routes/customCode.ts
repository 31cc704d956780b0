/**
 * Custom code: the scripts registered to a site (listed; registered hosted, with an https URL
 * and an integrity hash, or inline, 2000 characters at most: 201; a name and version registered
 * already, or past 800 scripts, refused), the registered scripts applied to a site or a page
 * (read, replaced as a whole by `PUT`, removed by `DELETE`: 204; only registered ids and
 * versions, each once), and the blocks: where scripts are applied on a site, paged.
 */
import * as Rules from "../../customCodeRules.js"
import { ApiError, created, invalid, noContent, paged, type Route } from "../http.js"
import type { AppliedScript, RegisteredScript } from "../siteCode.js"
import type { Store } from "../store.js"

const textOf = (body: Readonly<Record<string, unknown>>, param: string, rule?: { pattern: RegExp; description: string }) => {
  const value = body[param]
  if (typeof value !== "string" || value === "") throw invalid([{ param, description: "Field is required" }])
  if (rule !== undefined && !rule.pattern.test(value)) throw invalid([{ param, description: rule.description }])
  return value
}

export const routes = (store: Store): ReadonlyArray<Route> => {
  const code = store.siteCode
  const register = (siteId: string, body: Readonly<Record<string, unknown>>, hosted: { hostedLocation: string; integrityHash: string | null; sourceCode: string | null }) => {
    const displayName = textOf(body, "displayName", { pattern: Rules.scriptNamePattern, description: "must be between 1 and 50 alphanumeric characters" })
    const version = textOf(body, "version", { pattern: Rules.semverPattern, description: "must be a Semantic Version (e.g. 1.0.0)" })
    const canCopy = body["canCopy"] ?? false
    if (typeof canCopy !== "boolean") throw invalid([{ param: "canCopy", description: "Expected a boolean" }])
    const scripts = code.scriptsOf(siteId)
    const id = Rules.scriptIdOf(displayName)
    if (scripts.has(`${id}@${version}`)) throw invalid([{ param: "version", description: `Version ${version} of ${id} is registered already` }])
    if (scripts.size >= Rules.registeredScriptsMax) throw new ApiError(409, "conflict", "The maximum number of registered scripts has been reached.")
    const now = new Date().toISOString()
    const script: RegisteredScript = { id, siteId, displayName, version, canCopy, createdOn: now, lastUpdated: now, ...hosted }
    scripts.set(`${id}@${version}`, script)
    return created(code.registeredJson(script))
  }
  /** The `scripts` of a `PUT …/custom_code`: each registered to the site, with that version, applied once, in the header or footer. */
  const appliedOf = (siteId: string, body: Readonly<Record<string, unknown>>): Array<AppliedScript> => {
    const scripts = body["scripts"]
    if (!Array.isArray(scripts)) throw invalid([{ param: "scripts", description: "Field is required" }])
    const registered = code.scriptsOf(siteId)
    return scripts.map((script: unknown, i) => {
      const param = `scripts[${i}]`
      if (typeof script !== "object" || script === null) throw invalid([{ param, description: "Expected an object" }])
      const { attributes = {}, id, location, version } = script as Record<string, unknown>
      if (typeof id !== "string" || typeof version !== "string") throw invalid([{ param, description: "id and version are required" }])
      if (location !== "header" && location !== "footer") throw invalid([{ param: `${param}.location`, description: "must be one of header, footer" }])
      if (typeof attributes !== "object" || attributes === null || Array.isArray(attributes)) throw invalid([{ param: `${param}.attributes`, description: "Expected an object" }])
      if (!registered.has(`${id}@${version}`)) throw invalid([{ param, description: `Script ${id} version ${version} is not registered to this site` }])
      if (scripts.findIndex((other: any) => other?.id === id) < i) throw invalid([{ param, description: `Script ${id} is applied twice` }])
      return { id, version, location, attributes: { ...(attributes as Record<string, unknown>) } }
    })
  }
  const upsert = (key: string, siteId: string, pageId: string | null, scripts: Array<AppliedScript>) => {
    const now = new Date().toISOString()
    const current = code.customCode.get(key)
    const next = { siteId, pageId, scripts, createdOn: current?.createdOn ?? now, lastUpdated: now }
    code.customCode.set(key, next)
    return code.customCodeJson(next)
  }
  const remove = (key: string) => {
    code.customCode.delete(key)
    return noContent()
  }
  return [
    {
      method: "GET",
      path: "/sites/:site_id/registered_scripts",
      scope: "custom_code:read",
      handle: ({ path }) => {
        const scripts = [...code.scriptsOf(store.site(path["site_id"]!).id).values()]
        return { registeredScripts: scripts.map(code.registeredJson), pagination: { limit: Rules.registeredScriptsMax, offset: 0, total: scripts.length } }
      }
    },
    {
      method: "POST",
      path: "/sites/:site_id/registered_scripts/hosted",
      scope: "custom_code:write",
      handle: ({ body, path }) => {
        const site = store.site(path["site_id"]!)
        const hostedLocation = textOf(body, "hostedLocation", { pattern: /^https:\/\/\S+$/, description: "must be an https URL" })
        const integrityHash = textOf(body, "integrityHash", { pattern: Rules.integrityHashPattern, description: "must be a Sub-Resource Integrity hash" })
        return register(site.id, body, { hostedLocation, integrityHash, sourceCode: null })
      }
    },
    {
      method: "POST",
      path: "/sites/:site_id/registered_scripts/inline",
      scope: "custom_code:write",
      handle: ({ body, path }) => {
        const site = store.site(path["site_id"]!)
        const sourceCode = textOf(body, "sourceCode")
        if (sourceCode.length > Rules.inlineScriptMaxLength) {
          throw invalid([{ param: "sourceCode", description: `Inline scripts are limited to ${Rules.inlineScriptMaxLength} characters` }])
        }
        const version = typeof body["version"] === "string" ? body["version"] : ""
        const name = typeof body["displayName"] === "string" ? Rules.scriptIdOf(body["displayName"]) : ""
        // Webflow hosts an inline script itself.
        const hostedLocation = `https://cdn.webflow.example/sites/${site.id}/scripts/${name}-${version}.js`
        return register(site.id, body, { hostedLocation, integrityHash: null, sourceCode })
      }
    },
    { method: "GET", path: "/sites/:site_id/custom_code", scope: "custom_code:read", handle: ({ path }) => code.customCodeJson(code.customCode.get(`site:${store.site(path["site_id"]!).id}`)) },
    {
      method: "PUT",
      path: "/sites/:site_id/custom_code",
      scope: "custom_code:write",
      handle: ({ body, path }) => {
        const site = store.site(path["site_id"]!)
        return upsert(`site:${site.id}`, site.id, null, appliedOf(site.id, body))
      }
    },
    { method: "DELETE", path: "/sites/:site_id/custom_code", scope: "custom_code:write", handle: ({ path }) => remove(`site:${store.site(path["site_id"]!).id}`) },
    { method: "GET", path: "/pages/:page_id/custom_code", scope: "custom_code:read", handle: ({ path }) => code.customCodeJson(code.customCode.get(`page:${store.page(path["page_id"]!).id}`)) },
    {
      method: "PUT",
      path: "/pages/:page_id/custom_code",
      scope: "custom_code:write",
      handle: ({ body, path }) => {
        const page = store.page(path["page_id"]!)
        return upsert(`page:${page.id}`, page.siteId, page.id, appliedOf(page.siteId, body))
      }
    },
    { method: "DELETE", path: "/pages/:page_id/custom_code", scope: "custom_code:write", handle: ({ path }) => remove(`page:${store.page(path["page_id"]!).id}`) },
    {
      method: "GET",
      path: "/sites/:site_id/custom_code/blocks",
      scope: "custom_code:read",
      handle: ({ path, query }) => {
        const site = store.site(path["site_id"]!)
        const blocks = [...code.customCode.values()].filter((c) => c.siteId === site.id && c.scripts.length > 0)
        return paged("blocks", blocks, query, code.blockJson)
      }
    }
  ]
}
