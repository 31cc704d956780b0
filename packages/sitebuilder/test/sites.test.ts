/**
 * Sites, collections and pages, on the wire (nock): each action's request (method, path,
 * query, body) pinned, Webflow's answers (the document's examples) decoded, pages listed to
 * the end or the limit, bad input refused before any request, Webflow's errors typed; and the
 * pages' and custom domains' dynamic options.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import nock from "nock"
import { ACCESS_TOKEN, API, COLLECTION, executor, run, SITE, webflowError, withFetch } from "./support.js"

const webflow = () => nock(API, { reqheaders: { authorization: `Bearer ${ACCESS_TOKEN}`, accept: "application/json" } })
const options = (action: string, property: string, params: Record<string, unknown>) =>
  withFetch(executor.options(`sitebuilder/v1/${action}`, property, params))

const DOMAIN = "589a331aa51e760df7ccb89d"
const DOMAIN_TOO = "589a331aa51e760df7ccb89e"
const PAGE = "6596da6045e56dee495bcbba"

/** The document's example of `GET /sites/{site_id}`. */
const webflowSite = {
  id: SITE,
  workspaceId: "42e63e98c9a982ac9b8b7420",
  displayName: "The Hitchhiker's Guide to the Galaxy",
  shortName: "hitchhikers-guide",
  previewUrl: "https://screenshots.webflow.com/sites/6258612d1ee792848f805dcf/20231219211811_d5990556c743f33b7071300a03bf67e6.png",
  timeZone: "Magrathea/FactoryFloor",
  createdOn: "1979-10-12T12:00:00.000Z",
  lastUpdated: "2023-04-02T12:42:00.000Z",
  lastPublished: "2023-04-02T12:42:00.000Z",
  parentFolderId: "1as2d3f4g5h6j7k8l9z0x1c2v3b4n5m6",
  customDomains: [{ id: DOMAIN, url: "hitchhikersguide.galaxy" }, { id: DOMAIN_TOO, url: "heartofgold.spaceship" }],
  locales: {
    primary: { id: "653fd9af6a07fc9cfd7a5e57", cmsLocaleId: "653ad57de882f528b32e810e", enabled: false, displayName: "English (United States)", displayImageId: null, redirect: true, subdirectory: "", tag: "en-US" },
    secondary: [{ id: "653fd9af6a07fc9cfd7a5e56", cmsLocaleId: "653fd9af6a07fc9cfd7a5e5d", enabled: true, displayName: "French (France)", displayImageId: null, subdirectory: "fr-fr", tag: "fr-FR" }]
  },
  dataCollectionEnabled: true,
  dataCollectionType: "always"
}
/** The document's example page. */
const webflowPage = (n = 0, overrides: Record<string, unknown> = {}) => ({
  id: n === 0 ? PAGE : `${PAGE.slice(0, 20)}${String(n).padStart(4, "0")}`,
  siteId: SITE,
  parentId: null,
  collectionId: null,
  title: "Guide to the Galaxy",
  slug: "guide-to-the-galaxy",
  createdOn: "2024-03-11T10:42:00.000Z",
  lastUpdated: "2024-03-11T10:42:42.000Z",
  archived: false,
  draft: false,
  canBranch: false,
  isBranch: true,
  branchId: "68026fa68ef6dc744c75b833",
  seo: { title: "The Ultimate Hitchhiker's Guide to the Galaxy", description: "Everything you need to know about the galaxy." },
  openGraph: { title: "Explore the Cosmos with The Ultimate Guide", titleCopied: false, description: "Dive deep into the mysteries of the universe.", descriptionCopied: false },
  localeId: "653fd9af6a07fc9cfd7a5e57",
  publishedPath: "/en-us/guide-to-the-galaxy",
  ...overrides
})
const webflowCollection = { id: COLLECTION, displayName: "Products", singularName: "Product", slug: "product", createdOn: "2019-06-12T13:35:14.238Z", lastUpdated: "2022-11-17T15:08:50.480Z" }

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})
afterAll(() => nock.enableNetConnect())

describe("sites: the wire", () => {
  it.effect("listSites: GET /v2/sites; getSite: GET /v2/sites/{siteId}, its custom domains and locales decoded", () =>
    Effect.gen(function*() {
      const scope = webflow()
        .get("/v2/sites").reply(200, { sites: [webflowSite, { id: "580e63e98c9a982ac9b8b742", displayName: "Bare", lastPublished: null }] })
        .get(`/v2/sites/${SITE}`).reply(200, webflowSite)
      const { sites } = (yield* run("listSites", {})) as { sites: ReadonlyArray<any> }
      expect(sites.map((s) => [s.displayName, s.customDomains.length, s.lastPublished])).toEqual([
        ["The Hitchhiker's Guide to the Galaxy", 2, "2023-04-02T12:42:00.000Z"],
        ["Bare", 0, null]
      ])
      expect(yield* run("getSite", { siteId: SITE })).toMatchObject({
        id: SITE,
        shortName: "hitchhikers-guide",
        customDomains: [{ id: DOMAIN, url: "hitchhikersguide.galaxy" }, { id: DOMAIN_TOO, url: "heartofgold.spaceship" }],
        locales: { primary: { tag: "en-US" }, secondary: [{ subdirectory: "fr-fr" }] }
      })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("listCustomDomains: GET /v2/sites/{siteId}/custom_domains", () =>
    Effect.gen(function*() {
      const scope = webflow().get(`/v2/sites/${SITE}/custom_domains`).reply(200, {
        customDomains: [
          { id: DOMAIN, url: "hitchhikersguide.galaxy", lastPublished: "2022-12-07T16:51:37.571Z" },
          { id: DOMAIN_TOO, url: "heartofgold.spaceship", lastPublished: null }
        ]
      })
      expect(yield* run("listCustomDomains", { siteId: SITE })).toEqual({
        customDomains: [
          { id: DOMAIN, url: "hitchhikersguide.galaxy", lastPublished: "2022-12-07T16:51:37.571Z" },
          { id: DOMAIN_TOO, url: "heartofgold.spaceship", lastPublished: null }
        ]
      })
      expect(scope.isDone()).toBe(true)
    }))

  it.live("publishSite: POST /v2/sites/{siteId}/publish {customDomains, publishToWebflowSubdomain}, 202 decoded; nothing to publish to is refused unsent", () =>
    Effect.gen(function*() {
      const scope = webflow()
        .post(`/v2/sites/${SITE}/publish`, { customDomains: [DOMAIN], publishToWebflowSubdomain: true })
        .reply(202, { customDomains: [{ id: DOMAIN, url: "hitchhikersguide.galaxy", lastPublished: "2024-07-26T16:43:20.440Z" }], publishToWebflowSubdomain: true })
        .post(`/v2/sites/${SITE}/publish`, { customDomains: [], publishToWebflowSubdomain: true })
        .reply(429, webflowError("too_many_requests", "Too many requests"), { "retry-after": "0" })
        .post(`/v2/sites/${SITE}/publish`, { customDomains: [], publishToWebflowSubdomain: true })
        .reply(202, { customDomains: [], publishToWebflowSubdomain: true })
      expect(yield* run("publishSite", { siteId: SITE, customDomains: [DOMAIN], publishToWebflowSubdomain: true })).toEqual({
        customDomains: [{ id: DOMAIN, url: "hitchhikersguide.galaxy", lastPublished: "2024-07-26T16:43:20.440Z" }],
        publishToWebflowSubdomain: true
      })
      // Webflow's one-a-minute 429 is retried after its Retry-After.
      expect(yield* run("publishSite", { siteId: SITE, publishToWebflowSubdomain: true })).toEqual({ customDomains: [], publishToWebflowSubdomain: true })
      expect(scope.isDone()).toBe(true)
      const nowhere = yield* Effect.flip(run("publishSite", { siteId: SITE }))
      expect(nowhere._tag === "InvalidInput" && nowhere.issues.map((i) => [i.path, i.message])).toEqual([
        ["customDomains", "name a custom domain or publish to the Webflow subdomain"]
      ])
      const bad = yield* Effect.flip(run("publishSite", { siteId: SITE, customDomains: ["shop.example.com"] }))
      expect(bad._tag === "InvalidInput" && bad.issues.map((i) => i.path)).toEqual(["customDomains[0]"])
    }))
})

describe("collections: the wire", () => {
  it.effect("listCollections: GET /v2/sites/{siteId}/collections; getCollection: GET /v2/collections/{id} with its fields", () =>
    Effect.gen(function*() {
      const fields = [
        { id: "5e2a1b3c4d5e6f7890a1b2c3", isEditable: true, isRequired: true, type: "PlainText", slug: "name", displayName: "Entry Title", helpText: "Name of the entry.", validations: null },
        { id: "3f4e5d6c7b8a9e0d1c2b3a4f", isEditable: true, isRequired: false, type: "Number", slug: "importance-level", displayName: "Importance Level", helpText: null, validations: { format: "integer", minValue: 1, maxValue: 5 } }
      ]
      const scope = webflow()
        .get(`/v2/sites/${SITE}/collections`).reply(200, { collections: [webflowCollection, { ...webflowCollection, id: "63692ab61fb2856e6a2ba8f6", displayName: "Categories" }] })
        .get(`/v2/collections/${COLLECTION}`).reply(200, { ...webflowCollection, fields })
        .get(`/v2/collections/${SITE}`).reply(404, webflowError("collection_not_found", "Requested resource not found: Collection not found"))
      const { collections } = (yield* run("listCollections", { siteId: SITE })) as { collections: ReadonlyArray<any> }
      expect(collections.map((c) => c.displayName)).toEqual(["Products", "Categories"])
      expect(collections[0]).toEqual(webflowCollection)
      expect(yield* run("getCollection", { collectionId: COLLECTION })).toEqual({ ...webflowCollection, fields })
      expect(yield* Effect.flip(run("getCollection", { collectionId: SITE }))).toMatchObject({ _tag: "NotFound", message: "Requested resource not found: Collection not found" })
      expect(scope.isDone()).toBe(true)
    }))
})

describe("pages: the wire", () => {
  it.live("listPages: GET /v2/sites/{siteId}/pages?offset&limit page after page, up to the limit", () =>
    Effect.gen(function*() {
      const scope = webflow()
        .get(`/v2/sites/${SITE}/pages`).query({ offset: 0, limit: 100 })
        .reply(200, { pages: Array.from({ length: 100 }, (_, i) => webflowPage(i + 1)), pagination: { limit: 100, offset: 0, total: 150 } })
        .get(`/v2/sites/${SITE}/pages`).query({ offset: 100, limit: 100 })
        .reply(200, { pages: Array.from({ length: 50 }, (_, i) => webflowPage(i + 101)), pagination: { limit: 100, offset: 100, total: 150 } })
      const { pages } = (yield* run("listPages", { siteId: SITE, limit: 500 })) as { pages: ReadonlyArray<any> }
      expect(pages).toHaveLength(150)
      expect(pages[149]).toEqual(webflowPage(150))
      expect(scope.isDone()).toBe(true)
      const few = webflow().get(`/v2/sites/${SITE}/pages`).query({ offset: 0, limit: 30 })
        .reply(200, { pages: Array.from({ length: 30 }, (_, i) => webflowPage(i + 1)), pagination: { limit: 30, offset: 0, total: 150 } })
      expect(((yield* run("listPages", { siteId: SITE, limit: 30 })) as { pages: ReadonlyArray<unknown> }).pages).toHaveLength(30)
      expect(few.isDone()).toBe(true)
    }))

  it.effect("getPageMetadata: GET /v2/pages/{pageId}; an unknown page is a NotFound", () =>
    Effect.gen(function*() {
      const scope = webflow()
        .get(`/v2/pages/${PAGE}`).reply(200, webflowPage())
        .get(`/v2/pages/${SITE}`).reply(404, webflowError("resource_not_found", "Requested resource not found: Page not found"))
      expect(yield* run("getPageMetadata", { pageId: PAGE })).toEqual(webflowPage())
      expect(yield* Effect.flip(run("getPageMetadata", { pageId: SITE }))).toMatchObject({ _tag: "NotFound", status: 404 })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("updatePageMetadata: PUT /v2/pages/{pageId} with only what is given; contradictions and nothing to change refused unsent", () =>
    Effect.gen(function*() {
      const updated = webflowPage(0, { title: "Towel Day", seo: { title: "Celebrate Towel Day", description: "Don't panic." } })
      const scope = webflow()
        .put(`/v2/pages/${PAGE}`, { title: "Towel Day", seo: { title: "Celebrate Towel Day", description: "Don't panic." }, openGraph: { titleCopied: true, description: "Bring a towel.", descriptionCopied: false } })
        .reply(200, updated)
        .put(`/v2/pages/${PAGE}`, { slug: "taken" })
        .reply(400, webflowError("validation_error", "Validation Error", [{ param: "slug", description: "Slug is already in use" }]))
      expect(yield* run("updatePageMetadata", {
        pageId: PAGE,
        title: "Towel Day",
        seoTitle: "Celebrate Towel Day",
        seoDescription: "Don't panic.",
        openGraphTitleCopied: true,
        openGraphDescription: "Bring a towel.",
        openGraphDescriptionCopied: false
      })).toEqual(updated)
      expect(yield* Effect.flip(run("updatePageMetadata", { pageId: PAGE, slug: "taken" }))).toMatchObject({ _tag: "InvalidInput" })
      expect(scope.isDone()).toBe(true)
      const copied = yield* Effect.flip(run("updatePageMetadata", { pageId: PAGE, openGraphTitle: "Mine", openGraphTitleCopied: true }))
      expect(copied._tag === "InvalidInput" && copied.issues.map((i) => i.path)).toEqual(["openGraphTitle"])
      const nothing = yield* Effect.flip(run("updatePageMetadata", { pageId: PAGE }))
      expect(nothing._tag === "InvalidInput" && nothing.issues.map((i) => i.path)).toEqual(["title"])
      const slug = yield* Effect.flip(run("updatePageMetadata", { pageId: "home", slug: "Not A Slug" }))
      expect(slug._tag === "InvalidInput" && slug.issues.map((i) => i.path)).toEqual(["pageId", "slug"])
    }))
})

describe("sites and pages: options", () => {
  it.effect("pages as 'title (path)', every page; custom domains by url", () =>
    Effect.gen(function*() {
      const scope = webflow()
        .get(`/v2/sites/${SITE}/pages`).query({ offset: 0, limit: 100 }).reply(200, { pages: [webflowPage()], pagination: { limit: 100, offset: 0, total: 1 } })
        .get(`/v2/sites/${SITE}/custom_domains`).reply(200, { customDomains: [{ id: DOMAIN, url: "hitchhikersguide.galaxy" }] })
      expect(yield* options("updatePageMetadata", "pageId", { siteId: SITE })).toEqual([{ label: "Guide to the Galaxy (/en-us/guide-to-the-galaxy)", value: PAGE }])
      expect(yield* options("publishSite", "customDomains", { siteId: SITE })).toEqual([{ label: "hitchhikersguide.galaxy", value: DOMAIN }])
      expect(scope.isDone()).toBe(true)
    }))
})

describe("pages: the triggers' samples", () => {
  it.effect("pageCreated: the pages created last; pageMetadataUpdated: the pages updated last (GET /v2/sites/{siteId}/pages), as their events", () =>
    Effect.gen(function*() {
      const pages = [
        webflowPage(1, { title: "Old", createdOn: "2024-01-01T00:00:00.000Z", lastUpdated: "2024-09-01T00:00:00.000Z", publishedPath: "/old" }),
        webflowPage(2, { title: "New", createdOn: "2024-06-01T00:00:00.000Z", lastUpdated: "2024-06-02T00:00:00.000Z", publishedPath: "/new" })
      ]
      const scope = webflow()
        .get(`/v2/sites/${SITE}/pages`).query({ offset: 0, limit: 100 }).twice().reply(200, { pages, pagination: { limit: 100, offset: 0, total: 2 } })
      const sample = (name: string) => withFetch(executor.sample({ label: name, name, type: `sitebuilder/v1/${name}`, parameters: { siteId: SITE } }))
      expect(yield* sample("pageCreated")).toEqual([
        { id: pages[1]!.id, output: { siteId: SITE, pageId: pages[1]!.id, pageTitle: "New", publishedPath: "/new", createdOn: "2024-06-01T00:00:00.000Z" } },
        { id: pages[0]!.id, output: { siteId: SITE, pageId: pages[0]!.id, pageTitle: "Old", publishedPath: "/old", createdOn: "2024-01-01T00:00:00.000Z" } }
      ])
      expect((yield* sample("pageMetadataUpdated")).map((e) => e.id)).toEqual([`${pages[0]!.id}@2024-09-01T00:00:00.000Z`, `${pages[1]!.id}@2024-06-02T00:00:00.000Z`])
      expect(scope.isDone()).toBe(true)
    }))
})
