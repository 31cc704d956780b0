/**
 * Every request sitebuilder can send (each action and options list, run against the simulator)
 * checked against Webflow's published OpenAPI document (../shared/specs): method, path,
 * parameters, body. A new action or trigger without a case here fails the test.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Contract from "@x/contract"
import { Component, Executor } from "@x/core"
import * as Effect from "effect/Effect"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { parse } from "yaml"
import { sitebuilder } from "../src/index.js"
import * as Simulator from "../src/testing/simulator.js"
import { connectedTo } from "./support.js"

const specPath = fileURLToPath(new URL("../../../../shared/specs/webflow/webflow-data-api-v2-openapi.yml", import.meta.url))
const { seed } = Simulator

/** Where the document is wrong about a request Webflow takes; each says why. */
const amendments = (): ReadonlyArray<Contract.Amendment> => {
  // `POST /sites/{site_id}/products`: the document's body schema requires `name` and `slug` (and the
  // SKU's `price`) beside `fieldData`, where its own example and Webflow's API reference put them:
  // inside `fieldData` (its SKU `fieldData` requires them there already). The same schema, with the
  // product's required fields inside its `fieldData`.
  const document = parse(readFileSync(specPath, "utf8")) as any
  const schema = structuredClone(document.paths["/sites/{site_id}/products"].post.requestBody.content["application/json"].schema)
  const { product, sku } = schema.properties
  product.properties.fieldData.required = product.required
  delete product.required
  delete sku.required
  // Webflow switched off User Accounts on every site on 2026-01-29 (../shared/specs/README.md): the
  // users and access groups endpoints no longer answer, and the document (2025-10-27) predates it.
  // Marked deprecated, no action may send them unless it is marked deprecated too.
  const switchedOff = Object.entries<any>(document.paths)
    .filter(([template]) => /^\/sites\/\{site_id\}\/(users|accessgroups)\b/.test(template))
    .flatMap(([template, item]) =>
      ["get", "post", "put", "patch", "delete"].filter((method) => item[method] !== undefined).map((method): Contract.Amendment => ({
        operation: `${method.toUpperCase()} ${template}`,
        deprecated: true,
        reason: "Webflow switched off User Accounts (users, access groups) on every site on 2026-01-29"
      }))
    )
  return [
    ...switchedOff,
    { operation: "POST /sites/{site_id}/products", parameters: [], body: schema, reason: "the product's and SKU's required fields are in fieldData (the document's example)" },
    // items
    {
      operation: "POST /collections/{collection_id}/items/publish",
      parameters: [],
      // The document's oneOf has two branches that require nothing, so every body matches both and
      // none passes; each branch requires its key here (as its examples show), which is stricter.
      body: {
        oneOf: [
          { type: "object", required: ["itemIds"], properties: { itemIds: { type: "array", minItems: 1, items: { type: "string", pattern: "^[0-9a-fA-F]{24}$" } } } },
          {
            type: "object",
            required: ["items"],
            properties: {
              items: {
                type: "array",
                items: { type: "object", required: ["id"], properties: { id: { type: "string" }, cmsLocaleIds: { type: "array", items: { type: "string" } } } }
              }
            }
          }
        ]
      },
      reason: "the document's two body variants (itemIds, items with locales) each require nothing, so any body matches both of its oneOf"
    },
    {
      operation: "POST /collections/{collection_id}/items/live",
      parameters: [],
      // The document's body here is the answer's Collection Item (requiring `id`, `lastPublished`,
      // `lastUpdated`, `createdOn`, which no new item has), alone or as `items`; its own examples
      // send only `fieldData` and the flags, as `POST …/items` (the same create, staged) declares.
      body: document.paths["/collections/{collection_id}/items"].post.requestBody.content["application/json"].schema,
      reason: "a new item has no id nor dates: the staged create's body schema, as the document's own examples send"
    }
  ]
}

let sim: Simulator.Simulator
beforeAll(async () => {
  sim = await Simulator.start({ rateLimit: false })
})
afterAll(() => sim.close())

// Unpaced: this test checks what is sent, and every action, option list and trigger is more requests than Webflow's 60 a minute.
const executor = Executor.make([Component.withRateLimits(sitebuilder, [])])

// ../shared sits beside the repository in CI and on the developers' machines.
describe.runIf(Contract.documentsPresent(specPath))("every request sitebuilder sends, against webflow-data-api-v2-openapi.yml", () => {
  it.live("each action and options list sends only operations, parameters and bodies the document has", () =>
    Effect.gen(function*() {
      const contract = Contract.load(specPath, amendments())
      expect([...contract.deprecatedOperations].sort()).toEqual([
        "DELETE /sites/{site_id}/users/{user_id}",
        "GET /sites/{site_id}/accessgroups",
        "GET /sites/{site_id}/users",
        "GET /sites/{site_id}/users/{user_id}",
        "PATCH /sites/{site_id}/users/{user_id}",
        "POST /sites/{site_id}/users/invite"
      ])
      const recorder = Contract.recording(FetchHttpClient.layer)
      const collection = seed.collections.products
      const { missing } = yield* Contract.exercise(executor, sitebuilder, {
        actions: {
          fulfillOrder: { siteId: seed.sites.store, orderId: seed.orders.unfulfilled, sendOrderFulfilledEmail: true },
          getCollectionItem: { siteId: seed.sites.store, collectionId: collection, itemId: seed.productItem(1) },
          listCollectionItems: { siteId: seed.sites.store, collectionId: collection, live: true, sortBy: "lastPublished", sortOrder: "desc", limit: 150 },
          createCollectionItem: {
            siteId: seed.sites.store,
            collectionId: collection,
            live: true,
            fieldData: { name: "Contract tee", slug: "contract-tee", price: 25, featured: true, category: seed.categories.apparel }
          },
          updateCollectionItem: {
            siteId: seed.sites.store,
            collectionId: collection,
            itemId: seed.productItem(2),
            fieldData: { name: "Renamed", price: 12.5 }
          },
          customAction: { method: "GET", path: `/sites/${seed.sites.store}/collections` },
          // forms
          listForms: { siteId: seed.sites.store, limit: 10 },
          listFormSubmissions: { siteId: seed.sites.store, formId: seed.forms.newsletter, limit: 110 },
          getFormSubmission: { siteId: seed.sites.store, formId: seed.forms.contact, submissionId: seed.contactSubmission(1) },
          // assets
          listAssets: { siteId: seed.sites.store, limit: 150 },
          uploadAsset: { siteId: seed.sites.store, file: { base64: Buffer.from("contract bytes").toString("base64"), name: "contract.txt" } },
          getAsset: { siteId: seed.sites.store, assetId: seed.assets.logo },
          deleteAsset: { siteId: seed.sites.store, assetId: seed.assets.brochure },
          // items
          findCollectionItem: { siteId: seed.sites.store, collectionId: collection, field: "price", value: "300", live: true },
          deleteCollectionItem: { siteId: seed.sites.store, collectionId: collection, itemId: seed.productItem(7), live: true },
          publishCollectionItems: { siteId: seed.sites.store, collectionId: collection, itemIds: [seed.productItem(7), seed.productItem(8)] },
          createCollectionItems: {
            siteId: seed.sites.store,
            collectionId: collection,
            items: [{ name: "Contract one", slug: "contract-one", price: 1 }, { name: "Contract two", slug: "contract-two", featured: true }],
            isDraft: true
          },
          updateCollectionItems: {
            siteId: seed.sites.store,
            collectionId: collection,
            items: [{ id: seed.productItem(10), fieldData: { price: 11 } }, { id: seed.productItem(11), isArchived: true }]
          },
          deleteCollectionItems: { siteId: seed.sites.store, collectionId: collection, itemIds: [seed.productItem(12), seed.productItem(13)], live: true },
          unpublishCollectionItem: { siteId: seed.sites.store, collectionId: collection, itemId: seed.productItem(14) },
          // sites, collections and pages
          listSites: {},
          getSite: { siteId: seed.sites.store },
          publishSite: { siteId: seed.sites.store, customDomains: [seed.customDomains.shop, seed.customDomains.www], publishToWebflowSubdomain: true },
          listCustomDomains: { siteId: seed.sites.store },
          listCollections: { siteId: seed.sites.store },
          getCollection: { siteId: seed.sites.store, collectionId: collection },
          listPages: { siteId: seed.sites.store, limit: 150 },
          getPageMetadata: { siteId: seed.sites.store, pageId: seed.pages.about },
          updatePageMetadata: {
            siteId: seed.sites.store,
            pageId: seed.pages.about,
            title: "About us",
            slug: "about-us",
            seoTitle: "About Acme",
            seoDescription: "Who we are.",
            openGraphTitle: "Meet Acme",
            openGraphDescriptionCopied: true
          },
          // orders, products and inventory
          listOrders: { siteId: seed.sites.store, status: "unfulfilled", limit: 10 },
          getOrder: { siteId: seed.sites.store, orderId: seed.orders.fulfilled },
          updateOrder: { siteId: seed.sites.store, orderId: seed.orders.fulfilled, comment: "Gift", shippingProvider: "UPS", shippingTracking: "1Z999", shippingTrackingURL: "https://ups.example.com/1Z999" },
          unfulfillOrder: { siteId: seed.sites.store, orderId: seed.orders.fulfilled },
          refundOrder: { siteId: seed.sites.store, orderId: seed.orders.unfulfilledToo, reason: "requested" },
          listProducts: { siteId: seed.sites.store, limit: 150 },
          getProduct: { siteId: seed.sites.store, productId: seed.products.tshirt },
          createProduct: { siteId: seed.sites.store, name: "Contract Cap", slug: "contract-cap", description: "A cap.", price: 1500, sku: "CAP-1", publishStatus: "live" },
          updateProduct: { siteId: seed.sites.store, productId: seed.products.mug, name: "Big Mug", publishStatus: "staging" },
          getInventory: { siteId: seed.sites.store, skuCollectionId: seed.skuCollection, skuId: seed.skus.tshirt },
          updateInventory: { siteId: seed.sites.store, skuCollectionId: seed.skuCollection, skuId: seed.skus.tshirt, inventoryType: "finite", updateQuantity: -2 },
          // redirects
          listRedirects: { siteId: seed.sites.store },
          createRedirect: { siteId: seed.sites.store, fromUrl: "/contract-old", toUrl: "https://contract.example.com/new" },
          updateRedirect: { siteId: seed.sites.store, redirectId: seed.redirects.mostlyHarmless, toUrl: "/planet" },
          deleteRedirect: { siteId: seed.sites.store, redirectId: seed.redirects.babelFish },
          // custom code
          listRegisteredScripts: { siteId: seed.sites.store },
          registerHostedScript: {
            siteId: seed.sites.store, displayName: "Contract Hosted", version: "1.2.3-rc.1", canCopy: true,
            hostedLocation: "https://cdn.example.com/contract.js", integrityHash: "sha384-J+YlJ8v0gpaRoKH7SbFbEmxOZlAxLiwNjfSsBhDooGa5roXlPPpXbEevck4J7YZ+"
          },
          registerInlineScript: { siteId: seed.sites.store, displayName: "Contract Inline", version: "0.0.1", sourceCode: "console.log('contract')" },
          getSiteCustomCode: { siteId: seed.sites.store },
          upsertSiteCustomCode: {
            siteId: seed.sites.store,
            scripts: [{ ...seed.scripts.cmsSlider, location: "header", attributes: { defer: "true" } }, { id: "contract_inline", version: "0.0.1", location: "footer" }]
          },
          deleteSiteCustomCode: { siteId: seed.sites.store },
          getPageCustomCode: { siteId: seed.sites.store, pageId: seed.pages.about },
          upsertPageCustomCode: { siteId: seed.sites.store, pageId: seed.pages.about, scripts: [{ ...seed.scripts.cmsSlider, location: "footer" }] },
          deletePageCustomCode: { siteId: seed.sites.store, pageId: seed.pages.contact },
          listCustomCodeBlocks: { siteId: seed.sites.store, limit: 150 },
          // form submissions by site, updated and deleted; SKUs on their own
          listSiteFormSubmissions: { siteId: seed.sites.store, elementId: "4e038d2c-6a1e-4953-7be9-a59a2b453178", limit: 110 },
          updateFormSubmission: { siteId: seed.sites.store, formId: seed.forms.newsletter, submissionId: seed.newsletterSubmission(3), hiddenFields: { Source: "contract" } },
          deleteFormSubmission: { siteId: seed.sites.store, formId: seed.forms.newsletter, submissionId: seed.newsletterSubmission(4) },
          createSkus: {
            siteId: seed.sites.store, productId: seed.products.poster, currency: "USD", publishStatus: "live",
            skus: [{ name: "Poster A2", slug: "poster-a2", price: 1499, compareAtPrice: 1999, sku: "POS-A2", skuValues: { size: "a2" } }]
          },
          updateSku: { siteId: seed.sites.store, productId: seed.products.poster, skuId: seed.skus.poster, price: 1099 }
        },
        // triggers: each enabled (the site's webhooks listed, one created), disabled, and sampled where it has a sample
        triggers: {
          formSubmitted: { siteId: seed.sites.store, formName: "Contact Us" },
          sitePublished: { siteId: seed.sites.store },
          newOrder: { siteId: seed.sites.store },
          orderChanged: { siteId: seed.sites.store },
          inventoryChanged: { siteId: seed.sites.store },
          collectionItemCreated: { siteId: seed.sites.store },
          collectionItemChanged: { siteId: seed.sites.store, collectionId: collection },
          collectionItemDeleted: { siteId: seed.sites.store, collectionId: collection },
          collectionItemUnpublished: { siteId: seed.sites.store },
          pageCreated: { siteId: seed.sites.store },
          pageMetadataUpdated: { siteId: seed.sites.store },
          pageDeleted: { siteId: seed.sites.store },
          collectionItemPublished: { siteId: seed.sites.store, collectionId: collection },
          commentCreated: { siteId: seed.sites.store, pageId: seed.pages.about, threadsOnly: true }
        }
      }, "http://127.0.0.1:1/unused").pipe(
        Effect.provide(connectedTo({
          clientId: "client",
          clientSecret: sim.clientSecret,
          accessToken: sim.issueToken(),
          baseUrl: sim.baseUrl
        }, recorder.layer))
      )
      expect(missing).toEqual([])
      // items: the variants a case above does not send (staged delete, find by slug, get live).
      yield* Effect.forEach([
        { name: "findCollectionItem", parameters: { collectionId: collection, field: "slug", value: "product-9" } },
        { name: "getCollectionItem", parameters: { collectionId: collection, itemId: seed.productItem(9), live: true } },
        { name: "deleteCollectionItem", parameters: { collectionId: collection, itemId: seed.productItem(9) } },
        // many items: created live, updated live, deleted staged
        { name: "createCollectionItems", parameters: { collectionId: collection, items: [{ name: "Contract live", slug: "contract-live" }], live: true } },
        { name: "updateCollectionItems", parameters: { collectionId: collection, live: true, items: [{ id: seed.productItem(15), fieldData: { name: "Live 15" } }] } },
        { name: "deleteCollectionItems", parameters: { collectionId: collection, itemIds: [seed.productItem(16)] } }
      ], ({ name, parameters }) =>
        executor.run({ label: name, name, type: `sitebuilder/v1/${name}`, parameters }).pipe(
          Contract.sentBy({ label: `action sitebuilder/v1/${name}`, member: { kind: "action", name, via: "run" } })
        )).pipe(
        Effect.provide(connectedTo({ clientId: "client", clientSecret: sim.clientSecret, accessToken: sim.issueToken(), baseUrl: sim.baseUrl }, recorder.layer))
      )
      expect(recorder.requests.length).toBeGreaterThan(5)
      // The asset's upload goes to the presigned form's S3 bucket, not the API: outside the document.
      const [api, storage] = [recorder.requests.filter((r) => r.url.startsWith(sim.baseUrl)), recorder.requests.filter((r) => !r.url.startsWith(sim.baseUrl))]
      expect(storage.map((request) => `${request.method} ${new URL(request.url).pathname}`)).toEqual(["POST /s3/webflow-assets"])
      expect(api.flatMap((request) => contract.check(request, sim.baseUrl))).toEqual([])
      // Which operations each action sent, as operations.json has them (REFERENCE.md shows them).
      const sent = Contract.operationsSent(recorder.requests, (request) =>
        request.url.startsWith(sim.baseUrl) ? contract.operationOf(request, sim.baseUrl) : `${request.method} (the upload form's presigned S3 URL)`)
      expect(Contract.compareOperations(fileURLToPath(new URL("operations.json", import.meta.url)), sent)).toEqual([])
      // Every action's requests, one after another: 25 s alone beside the other packages' tests; a
      // stall bound five times that, for two `pnpm test` on two cores.
    }), 300_000)
})
