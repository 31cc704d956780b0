/**
 * Sites, collections and pages end to end: each action run through the executor against the
 * simulator; a publish that moves staged items to live (drafts not), stamps the site and its
 * domains and emits `site_publish`, then Webflow's one-a-minute limit; page metadata updated
 * (`page_metadata_updated`), and pages made and deleted in the "Designer" (`createPage`,
 * `deletePage`) with their events.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Simulator from "../src/testing/simulator.js"
import { simulated } from "./support.js"

const { seed } = Simulator
const simulation = simulated()
const { options, run } = simulation


describe("sites and collections against the simulator", () => {
  it.live("listSites, getSite, listCustomDomains: the store site with its two custom domains", () =>
    Effect.gen(function*() {
      const { sites } = (yield* run("listSites", {})) as { sites: ReadonlyArray<any> }
      expect(sites.map((s) => s.displayName)).toEqual(["Acme Store", "Portfolio"])
      const site = yield* run("getSite", { siteId: seed.sites.store })
      expect(site).toMatchObject({ id: seed.sites.store, displayName: "Acme Store", shortName: "acme-store", customDomains: [{ id: seed.customDomains.shop, url: "shop.acme.example" }, { id: seed.customDomains.www, url: "www.acme.example" }] })
      expect(yield* run("listCustomDomains", { siteId: seed.sites.portfolio })).toEqual({ customDomains: [] })
      expect(yield* run("listCustomDomains", { siteId: seed.sites.store })).toEqual({
        customDomains: [{ id: seed.customDomains.shop, url: "shop.acme.example", lastPublished: null }, { id: seed.customDomains.www, url: "www.acme.example", lastPublished: null }]
      })
      expect(yield* options("publishSite", "customDomains", { siteId: seed.sites.store })).toEqual([
        { label: "shop.acme.example", value: seed.customDomains.shop }, { label: "www.acme.example", value: seed.customDomains.www }
      ])
      expect(yield* Effect.flip(run("getSite", { siteId: "0123456789abcdef01234567" }))).toMatchObject({ _tag: "NotFound", status: 404 })
    }))

  it.live("listCollections and getCollection: the store's collections, Products with a field of every type", () =>
    Effect.gen(function*() {
      const { collections } = (yield* run("listCollections", { siteId: seed.sites.store })) as { collections: ReadonlyArray<any> }
      expect(collections.map((c) => [c.id, c.displayName, c.singularName])).toEqual([
        [seed.collections.products, "Products", "Product"],
        [seed.collections.blogPosts, "Blog Posts", "Blog Post"],
        // An e-commerce site's SKUs are a collection of their own.
        [seed.skuCollection, "SKUs", "SKU"]
      ])
      const products = (yield* run("getCollection", { collectionId: seed.collections.products })) as any
      expect(products.fields).toHaveLength(16)
      expect(products.fields.find((f: any) => f.slug === "category")).toMatchObject({ type: "Option", isRequired: false, validations: { options: [{ name: "Apparel" }, { name: "Gadgets" }] } })
      expect(yield* Effect.flip(run("getCollection", { collectionId: "0123456789abcdef01234567" }))).toMatchObject({ _tag: "NotFound", message: "Requested resource not found: Collection not found" })
    }))

  it.live("publishSite: staged changes go live (drafts not), the site and domain are stamped, site_publish is emitted; a second publish within the minute is a 429", () =>
    Effect.gen(function*() {
      const item = simulation.sim.items.get(seed.productItem(3))!
      item.fieldData = { ...item.fieldData, name: "Staged rename" }
      const draft = simulation.sim.items.get(seed.productItem(25))!
      expect(draft.live).toBeUndefined()
      const published = (yield* run("publishSite", { siteId: seed.sites.store, customDomains: [seed.customDomains.shop], publishToWebflowSubdomain: true })) as any
      expect(published).toEqual({
        customDomains: [{ id: seed.customDomains.shop, url: "shop.acme.example", lastPublished: expect.stringMatching(/^\d{4}-/) }],
        publishToWebflowSubdomain: true
      })
      const at = published.customDomains[0].lastPublished
      expect(simulation.sim.items.get(seed.productItem(3))!.live!.fieldData["name"]).toBe("Staged rename")
      expect(simulation.sim.items.get(seed.productItem(3))!.lastPublished).toBe(at)
      expect(simulation.sim.items.get(seed.productItem(25))!.live).toBeUndefined()
      expect(simulation.sim.sites.get(seed.sites.store)!.lastPublished).toBe(at)
      expect(simulation.sim.events.at(-1)).toEqual({
        siteId: seed.sites.store,
        triggerType: "site_publish",
        payload: { siteId: seed.sites.store, publishedOn: at, domains: ["shop.acme.example", "acme-store.webflow.io"], publishedBy: { displayName: "Data API" } }
      })
      const { items } = (yield* run("listCollectionItems", { collectionId: seed.collections.products, live: true, name: "Staged rename" })) as { items: ReadonlyArray<any> }
      expect(items.map((i) => i.id)).toEqual([seed.productItem(3)])
      const again = yield* Effect.promise(() => fetch(`${simulation.sim.baseUrl}/sites/${seed.sites.store}/publish`, {
        method: "POST",
        headers: { authorization: `Bearer ${simulation.values["accessToken"]}`, "content-type": "application/json" },
        body: JSON.stringify({ publishToWebflowSubdomain: true })
      }))
      expect(again.status).toBe(429)
      expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(0)
      expect(yield* Effect.promise(() => again.json())).toMatchObject({ code: "too_many_requests" })
      // Another site has its own minute; a domain of another site, or nothing at all, is a 400.
      expect(yield* Effect.flip(run("publishSite", { siteId: seed.sites.portfolio, customDomains: [seed.customDomains.www] }))).toMatchObject({ _tag: "InvalidInput", status: 400 })
      expect(yield* run("publishSite", { siteId: seed.sites.portfolio, publishToWebflowSubdomain: true })).toEqual({ customDomains: [], publishToWebflowSubdomain: true })
    }))
})

describe("pages against the simulator", () => {
  it.live("listPages, getPageMetadata: the store's three pages; options as 'title (path)'", () =>
    Effect.gen(function*() {
      const { pages } = (yield* run("listPages", { siteId: seed.sites.store })) as { pages: ReadonlyArray<any> }
      expect(pages.map((p) => [p.id, p.title, p.publishedPath])).toEqual([[seed.pages.home, "Home", "/"], [seed.pages.contact, "Contact", "/contact"], [seed.pages.about, "About", "/about"]])
      expect(yield* run("getPageMetadata", { pageId: seed.pages.about })).toMatchObject({
        id: seed.pages.about, siteId: seed.sites.store, slug: "about", seo: { title: "About | Acme Store", description: "Who makes Acme's things." },
        openGraph: { title: "About | Acme Store", titleCopied: true, description: "Who makes Acme's things.", descriptionCopied: true }
      })
      expect(yield* options("getPageMetadata", "pageId", { siteId: seed.sites.portfolio })).toEqual([
        { label: "Home (/)", value: seed.pages.portfolioHome }, { label: "Work (/work)", value: seed.pages.work }
      ])
    }))

  it.live("updatePageMetadata: SEO and Open Graph changed, page_metadata_updated emitted; a taken slug is a 400", () =>
    Effect.gen(function*() {
      const updated = (yield* run("updatePageMetadata", {
        pageId: seed.pages.contact, slug: "contact-us", seoTitle: "Write to us", openGraphDescription: "We answer within a day."
      })) as any
      expect(updated).toMatchObject({
        id: seed.pages.contact, title: "Contact", slug: "contact-us", publishedPath: "/contact-us",
        seo: { title: "Write to us", description: "Write to Acme." },
        openGraph: { title: "Write to us", titleCopied: true, description: "We answer within a day.", descriptionCopied: false }
      })
      expect(simulation.sim.events.at(-1)).toEqual({
        siteId: seed.sites.store,
        triggerType: "page_metadata_updated",
        payload: { siteId: seed.sites.store, pageId: seed.pages.contact, pageTitle: "Contact", lastUpdated: updated.lastUpdated, publishedPath: "/contact-us" }
      })
      expect(yield* Effect.flip(run("updatePageMetadata", { pageId: seed.pages.contact, slug: "about" }))).toMatchObject({ _tag: "InvalidInput", status: 400 })
      expect(yield* Effect.flip(run("updatePageMetadata", { pageId: "0123456789abcdef01234567", title: "X" }))).toMatchObject({ _tag: "NotFound" })
    }))

  it.live("createPage and deletePage (the Designer): listed, then gone, with page_created and page_deleted", () =>
    Effect.gen(function*() {
      const made = simulation.sim.createPage(seed.sites.portfolio, { title: "Heart of Gold Specs" })
      expect(made).toMatchObject({ title: "Heart of Gold Specs", slug: "heart-of-gold-specs", publishedPath: "/heart-of-gold-specs", siteId: seed.sites.portfolio })
      expect(simulation.sim.events.at(-1)).toEqual({
        siteId: seed.sites.portfolio,
        triggerType: "page_created",
        payload: { siteId: seed.sites.portfolio, pageId: made.id, pageTitle: "Heart of Gold Specs", createdOn: made.createdOn, publishedPath: "/heart-of-gold-specs" }
      })
      const { pages } = (yield* run("listPages", { siteId: seed.sites.portfolio })) as { pages: ReadonlyArray<any> }
      expect(pages.map((p) => p.id)).toContain(made.id)
      expect(() => simulation.sim.createPage(seed.sites.portfolio, { title: "Again", slug: "heart-of-gold-specs" })).toThrow()
      simulation.sim.deletePage(made.id)
      expect(simulation.sim.events.at(-1)).toMatchObject({ triggerType: "page_deleted", payload: { pageId: made.id, pageTitle: "Heart of Gold Specs", deletedOn: expect.stringMatching(/^\d{4}-/), publishedPath: "/heart-of-gold-specs" } })
      expect(yield* Effect.flip(run("getPageMetadata", { pageId: made.id }))).toMatchObject({ _tag: "NotFound" })
      expect(() => simulation.sim.deletePage(made.id)).toThrow()
    }))
})
