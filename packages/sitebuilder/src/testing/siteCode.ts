/**
 * The simulator's redirects and custom code: each site's 301 redirects, the scripts an app
 * registered to a site (by id and version), and the registered scripts applied to a site or a
 * page (the app's whole list there), with their JSON as Webflow answers it.
 */

/** A 301 redirect of a site. */
export interface Redirect { id: string; siteId: string; fromUrl: string; toUrl: string }
/** A script registered to a site: hosted elsewhere (with its integrity hash) or inline (its code, hosted by Webflow). */
export interface RegisteredScript {
  id: string
  siteId: string
  displayName: string
  version: string
  hostedLocation: string
  integrityHash: string | null
  sourceCode: string | null
  canCopy: boolean
  createdOn: string
  lastUpdated: string
}
/** A registered script applied to a site or page. */
export interface AppliedScript { id: string; version: string; location: "header" | "footer"; attributes: Record<string, unknown> }
/** The scripts applied to a site (`pageId` null) or to one of its pages. */
export interface CustomCode { siteId: string; pageId: string | null; scripts: Array<AppliedScript>; createdOn: string; lastUpdated: string }

export type SiteCode = ReturnType<typeof make>

export const make = () => {
  /** By id. */
  const redirects = new Map<string, Redirect>()
  /** By site, then `<id>@<version>`. */
  const registeredScripts = new Map<string, Map<string, RegisteredScript>>()
  /** By `site:<id>` or `page:<id>`. */
  const customCode = new Map<string, CustomCode>()
  const redirectJson = (r: Redirect) => ({ id: r.id, fromUrl: r.fromUrl, toUrl: r.toUrl })
  const scriptsOf = (siteId: string) => {
    let scripts = registeredScripts.get(siteId)
    if (scripts === undefined) registeredScripts.set(siteId, scripts = new Map())
    return scripts
  }
  const registeredJson = (s: RegisteredScript) => ({
    id: s.id, displayName: s.displayName, version: s.version, hostedLocation: s.hostedLocation,
    ...(s.integrityHash === null ? {} : { integrityHash: s.integrityHash }),
    canCopy: s.canCopy, createdOn: s.createdOn, lastUpdated: s.lastUpdated
  })
  const appliedJson = (a: AppliedScript) => ({ id: a.id, version: a.version, location: a.location, attributes: a.attributes })
  const customCodeJson = (c: CustomCode | undefined) =>
    c === undefined ? { scripts: [] } : { scripts: c.scripts.map(appliedJson), lastUpdated: c.lastUpdated, createdOn: c.createdOn }
  const blockJson = (c: CustomCode) => ({
    siteId: c.siteId, pageId: c.pageId, type: c.pageId === null ? "site" : "page", scripts: c.scripts.map(appliedJson),
    createdOn: c.createdOn, lastUpdated: c.lastUpdated
  })
  return { redirects, registeredScripts, customCode, redirectJson, scriptsOf, registeredJson, customCodeJson, blockJson }
}
