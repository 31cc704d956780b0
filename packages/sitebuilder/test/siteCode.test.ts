/**
 * Redirects and custom code, on the wire (nock): each action's request (method, path, body)
 * pinned, Webflow's answers (the document's examples) decoded, bad input refused before any
 * request, Webflow's errors typed; and the redirect dropdown.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import nock from "nock"
import { ACCESS_TOKEN, API, executor, run, SITE, webflowError, withFetch } from "./support.js"

const webflow = () => nock(API, { reqheaders: { authorization: `Bearer ${ACCESS_TOKEN}`, accept: "application/json" } })
const options = (action: string, property: string, params: Record<string, unknown>) =>
  withFetch(executor.options(`sitebuilder/v1/${action}`, property, params))

const PAGE = "63c720f9347c2139b248e552"
// The document's examples.
const redirect = { id: "42e1a2b7aa1a13f768a0042a", fromUrl: "/mostly-harmless", toUrl: "/earth" }
const babelFish = { id: "6x9e7f8d9a4b1c2d3e4f5678", fromUrl: "/babel-fish", toUrl: "/translate" }
const cmsSlider = {
  id: "cms_slider",
  displayName: "CMS Slider",
  hostedLocation: "https://cdn.jsdelivr.net/.../cmsslider.js",
  integrityHash: "sha384-J+YlJ8v0gpaRoKH7SbFbEmxOZlAxLiwNjfSsBhDooGa5roXlPPpXbEevck4J7YZ+",
  canCopy: true,
  version: "1.0.0",
  createdOn: "2022-10-26T00:28:54.191Z"
}
const customCode = {
  scripts: [
    { id: "cms_slider", location: "header", version: "1.0.0", attributes: { "my-attribute": "some-value" } },
    { id: "alert", location: "header", version: "0.0.1", attributes: {} }
  ],
  lastUpdated: "2022-10-26T00:28:54.191Z",
  createdOn: "2022-10-26T00:28:54.191Z"
}

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})
afterAll(() => nock.enableNetConnect())

describe("redirects: the wire", () => {
  it.effect("listRedirects: GET /v2/sites/{siteId}/redirects, no paging parameters; a redirect id that is not an objectid kept", () =>
    Effect.gen(function*() {
      const scope = webflow().get(`/v2/sites/${SITE}/redirects`).reply(200, { redirects: [redirect, babelFish], pagination: { limit: 100, offset: 0, total: 2 } })
      expect(yield* run("listRedirects", { siteId: SITE })).toEqual({ redirects: [redirect, babelFish] })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("createRedirect: POST {fromUrl, toUrl}; updateRedirect: PATCH with only what is given; deleteRedirect: DELETE, the list answered not needed", () =>
    Effect.gen(function*() {
      const scope = webflow()
        .post(`/v2/sites/${SITE}/redirects`, { fromUrl: "/mostly-harmless", toUrl: "/earth" }).reply(200, redirect)
        .patch(`/v2/sites/${SITE}/redirects/${babelFish.id}`, { toUrl: "https://translate.example.com/" }).reply(200, { ...babelFish, toUrl: "https://translate.example.com/" })
        .delete(`/v2/sites/${SITE}/redirects/${babelFish.id}`).reply(200, { redirects: [redirect], pagination: { limit: 100, offset: 0, total: 1 } })
      expect(yield* run("createRedirect", { siteId: SITE, fromUrl: "/mostly-harmless", toUrl: "/earth" })).toEqual(redirect)
      expect(yield* run("updateRedirect", { siteId: SITE, redirectId: babelFish.id, toUrl: "https://translate.example.com/" })).toEqual({ ...babelFish, toUrl: "https://translate.example.com/" })
      expect(yield* run("deleteRedirect", { siteId: SITE, redirectId: babelFish.id })).toEqual({ id: babelFish.id, deleted: true })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("a path without /, a target that is not a path or URL, nothing to change, a loop: refused before any request", () =>
    Effect.gen(function*() {
      const bad = yield* Effect.flip(run("createRedirect", { siteId: SITE, fromUrl: "mostly-harmless", toUrl: "earth" }))
      expect(bad._tag === "InvalidInput" && bad.issues.map((i) => i.path)).toEqual(["fromUrl", "toUrl"])
      const nothing = yield* Effect.flip(run("updateRedirect", { siteId: SITE, redirectId: redirect.id }))
      expect(nothing._tag === "InvalidInput" && nothing.issues.map((i) => i.path)).toEqual(["fromUrl"])
      const loop = yield* Effect.flip(run("createRedirect", { siteId: SITE, fromUrl: "/a", toUrl: "/a" }))
      expect(loop._tag === "InvalidInput" && loop.issues.map((i) => i.path)).toEqual(["toUrl"])
      const id = yield* Effect.flip(run("deleteRedirect", { siteId: SITE, redirectId: "../sites" }))
      expect(id._tag === "InvalidInput" && id.issues.map((i) => i.path)).toEqual(["redirectId"])
    }))

  it.effect("Webflow's 404 is a NotFound with its message; the dropdown: 'from → to' by id", () =>
    Effect.gen(function*() {
      webflow()
        .delete(`/v2/sites/${SITE}/redirects/${redirect.id}`).reply(404, webflowError("resource_not_found", "Requested resource not found"))
        .get(`/v2/sites/${SITE}/redirects`).reply(200, { redirects: [redirect, babelFish] })
      expect(yield* Effect.flip(run("deleteRedirect", { siteId: SITE, redirectId: redirect.id }))).toMatchObject({ _tag: "NotFound", status: 404, message: "Requested resource not found" })
      expect(yield* options("updateRedirect", "redirectId", { siteId: SITE })).toEqual([
        { label: "/mostly-harmless → /earth", value: redirect.id },
        { label: "/babel-fish → /translate", value: babelFish.id }
      ])
    }))
})

describe("custom code: the wire", () => {
  it.effect("listRegisteredScripts: GET /v2/sites/{siteId}/registered_scripts; registerHostedScript and registerInlineScript: POST, 201", () =>
    Effect.gen(function*() {
      const scope = webflow()
        .get(`/v2/sites/${SITE}/registered_scripts`).reply(200, { registeredScripts: [cmsSlider], pagination: { limit: 100, offset: 0, total: 1 } })
        .post(`/v2/sites/${SITE}/registered_scripts/hosted`, {
          displayName: "CMS Slider", version: "1.0.0", hostedLocation: "https://cdn.jsdelivr.net/npm/cms-slider/cmsslider.js", integrityHash: cmsSlider.integrityHash, canCopy: true
        }).reply(201, cmsSlider)
        .post(`/v2/sites/${SITE}/registered_scripts/inline`, { displayName: "Alert", version: "0.0.1", sourceCode: "alert('hello world');", canCopy: false })
        .reply(201, { id: "alert", displayName: "Alert", version: "0.0.1", canCopy: false, hostedLocation: "https://cdn.webflow.com/alert.js", createdOn: "2022-10-26T00:28:54.191Z" })
      expect(yield* run("listRegisteredScripts", { siteId: SITE })).toEqual({ registeredScripts: [cmsSlider] })
      expect(yield* run("registerHostedScript", {
        siteId: SITE, displayName: "CMS Slider", version: "1.0.0", hostedLocation: "https://cdn.jsdelivr.net/npm/cms-slider/cmsslider.js", integrityHash: cmsSlider.integrityHash, canCopy: true
      })).toEqual(cmsSlider)
      expect(yield* run("registerInlineScript", { siteId: SITE, displayName: "Alert", version: "0.0.1", sourceCode: "alert('hello world');" })).toMatchObject({ id: "alert", version: "0.0.1" })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("site and page custom code: GET, PUT {scripts: [{id, version, location, attributes}]}, DELETE (204); blocks paged", () =>
    Effect.gen(function*() {
      const scripts = [{ id: "cms_slider", version: "1.0.0", location: "header", attributes: { "my-attribute": "some-value" } }, { id: "alert", version: "0.0.1", location: "footer" }]
      const block = { siteId: SITE, pageId: PAGE, type: "page", scripts: customCode.scripts, createdOn: "2022-10-26T00:28:54.191Z", lastUpdated: "2022-10-26T00:28:54.191Z" }
      const scope = webflow()
        .get(`/v2/sites/${SITE}/custom_code`).reply(200, customCode)
        .put(`/v2/sites/${SITE}/custom_code`, { scripts }).reply(200, customCode)
        .delete(`/v2/sites/${SITE}/custom_code`).reply(204)
        .get(`/v2/pages/${PAGE}/custom_code`).reply(200, { scripts: [] })
        .put(`/v2/pages/${PAGE}/custom_code`, { scripts: [scripts[1]] }).reply(200, customCode)
        .delete(`/v2/pages/${PAGE}/custom_code`).reply(204)
        .get(`/v2/sites/${SITE}/custom_code/blocks`).query({ offset: 0, limit: 100 })
        .reply(200, { blocks: Array.from({ length: 100 }, () => block), pagination: { limit: 100, offset: 0, total: 101 } })
        .get(`/v2/sites/${SITE}/custom_code/blocks`).query({ offset: 100, limit: 100 })
        .reply(200, { blocks: [{ ...block, pageId: null, type: "site" }], pagination: { limit: 100, offset: 100, total: 101 } })
      expect(yield* run("getSiteCustomCode", { siteId: SITE })).toEqual(customCode)
      expect(yield* run("upsertSiteCustomCode", { siteId: SITE, scripts })).toEqual(customCode)
      expect(yield* run("deleteSiteCustomCode", { siteId: SITE })).toEqual({ siteId: SITE, deleted: true })
      expect(yield* run("getPageCustomCode", { siteId: SITE, pageId: PAGE })).toEqual({ scripts: [] })
      expect(yield* run("upsertPageCustomCode", { pageId: PAGE, scripts: [scripts[1]] })).toEqual(customCode)
      expect(yield* run("deletePageCustomCode", { pageId: PAGE })).toEqual({ pageId: PAGE, deleted: true })
      const { blocks } = (yield* run("listCustomCodeBlocks", { siteId: SITE, limit: 1000 })) as { blocks: ReadonlyArray<any> }
      expect(blocks).toHaveLength(101)
      expect(blocks[100]).toMatchObject({ type: "site", pageId: null })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("the document's limits before any request: 2000 characters, a name, a Semantic Version, an https URL and integrity hash, header or footer", () =>
    Effect.gen(function*() {
      const paths = (e: { _tag: string; issues?: ReadonlyArray<{ path: string }> }) => e.issues?.map((i) => i.path)
      const inline = yield* Effect.flip(run("registerInlineScript", { siteId: SITE, displayName: "x".repeat(51), version: "v1", sourceCode: "y".repeat(2001) }))
      expect(paths(inline)).toEqual(["displayName", "version", "sourceCode"])
      const tagged = yield* Effect.flip(run("registerInlineScript", { siteId: SITE, displayName: "Tagged", version: "1.0.0", sourceCode: "<script>alert(1)</script>" }))
      expect(paths(tagged)).toEqual(["sourceCode"])
      const hosted = yield* Effect.flip(run("registerHostedScript", { siteId: SITE, displayName: "Cdn", version: "1.0.0-rc.1", hostedLocation: "http://cdn.example.com/a.js" }))
      expect(paths(hosted)).toEqual(["hostedLocation", "integrityHash"])
      const applied = yield* Effect.flip(run("upsertSiteCustomCode", { siteId: SITE, scripts: [{ id: "alert", version: "0.0.1" }, { id: "alert", version: "1", location: "head" }] }))
      expect(paths(applied)).toEqual(["scripts[0].location", "scripts[1].version", "scripts[1].location"])
    }))

  it.effect("a 403 missing_scopes names custom_code:write (a site token or a connection made before custom code)", () =>
    Effect.gen(function*() {
      webflow().put(`/v2/sites/${SITE}/custom_code`).reply(403, webflowError("missing_scopes", "OAuthForbidden: You are missing the following scopes - custom_code:write"))
      const denied = yield* Effect.flip(run("upsertSiteCustomCode", { siteId: SITE, scripts: [] }))
      expect(denied).toMatchObject({ _tag: "PermissionDenied", status: 403, missingScopes: ["custom_code:write"] })
    }))
})
