/**
 * The catalog workflow (examples/webflow-catalog.json): every action of sitebuilder/v1, the
 * custom action included, run end to end on the sandbox from the built bundle, each step's ids
 * seeded or taken from earlier steps' outputs. An action added to the component without a step
 * here fails. Unpaced (`--without-rate-limits`): the catalog makes more requests than Webflow's
 * 60 a minute, and pacing is tested on its own.
 */
import { describe, expect, it } from "@effect/vitest"
import { sitebuilder } from "@x/sitebuilder"
import { fileURLToPath } from "node:url"
import { runCatalog } from "./bin.js"

const catalog = fileURLToPath(new URL("../examples/webflow-catalog.json", import.meta.url))

describe("x-runner run examples/webflow-catalog.json --sandbox", () => {
  it("runs every action of sitebuilder/v1, each step succeeding with real values", async () => {
    const { document, extra, failed, missing, output } = await runCatalog(catalog, sitebuilder, ["--without-rate-limits"])
    expect(document.status).toBe("succeeded")
    expect(failed).toEqual([])
    expect({ missing, extra }).toEqual({ missing: [], extra: [] })

    // Items: read, listed live past one page, created and changed with typed fields.
    expect(output("product")).toMatchObject({ id: "5eed00000000000000000101", fieldData: { name: "Product 1", slug: "product-1" } })
    expect(output("liveProducts").items).toHaveLength(125)
    expect(output("newProduct")).toMatchObject({ fieldData: { name: "Catalog tee", price: 25 }, isDraft: false })
    expect(output("repricedProduct")).toMatchObject({ id: output("newProduct").id, fieldData: { price: 30 } })
    // items: published, read live, found page by page and by slug, unpublished.
    expect(output("publishedProducts")).toEqual({ publishedItemIds: [output("newProduct").id], errors: [] })
    expect(output("liveNewProduct")).toMatchObject({ id: output("newProduct").id, isDraft: false, fieldData: { price: 30 } })
    expect(output("foundByPrice")).toMatchObject({ found: true, item: { id: output("newProduct").id } })
    expect(output("unpublishedProduct")).toEqual({ id: output("newProduct").id, deleted: true, live: true })
    expect(output("foundBySlug")).toMatchObject({ found: true, item: { id: output("newProduct").id, isDraft: true } })
    expect(output("deletedProduct")).toEqual({ id: output("newProduct").id, deleted: true, live: false })
    // Many items a request: created, changed, one published and unpublished, both deleted.
    const [hat, scarf] = output("newProducts").results.map((r: { id: string }) => r.id)
    expect(output("newProducts")).toMatchObject({ succeeded: 2, failed: 0, results: [{ index: 0, ok: true, output: { id: hat, fieldData: { slug: "catalog-hat" } } }, { index: 1, ok: true }] })
    expect(output("repricedProducts")).toMatchObject({ succeeded: 2, results: [{ id: hat, output: { fieldData: { price: 16 } } }, { id: scarf, output: { isArchived: true } }] })
    expect(output("unpublishedHat")).toEqual({ id: hat, unpublished: true })
    expect(output("deletedProducts")).toEqual({ succeeded: 2, failed: 0, results: [{ index: 0, id: hat, ok: true, output: { id: hat } }, { index: 1, id: scarf, ok: true, output: { id: scarf } }] })
    // Orders, and the custom action.
    expect(output("fulfilled")).toMatchObject({ orderId: "a1b-2c3", status: "fulfilled" })
    expect(output("collectionsByPath")).toMatchObject({ status: 200 })
    // forms
    expect(output("forms").forms.map((f: { displayName: string }) => f.displayName)).toEqual(["Contact Us", "Newsletter"])
    expect(output("newsletterSubmissions").formSubmissions).toHaveLength(120)
    expect(output("newsletterSubmissions").formSubmissions[119]).toMatchObject({ formResponse: { Email: "reader120@example.com" } })
    expect(output("contactSubmission")).toMatchObject({ id: "5eed000000000000000f1001", displayName: "Contact Us", formResponse: { Name: "Arthur Dent", Message: "Where is my towel?" } })
    // assets
    expect(output("uploadedAsset")).toMatchObject({ siteId: "5eed00000000000000000001", originalFileName: "price-list.csv", contentType: "text/csv", size: 26 })
    expect(output("uploadedAsset").hostedUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/s3\/webflow-assets\/5eed00000000000000000001\/[0-9a-f]{24}_price-list\.csv$/)
    expect(output("logoAsset")).toMatchObject({ id: "5eed00000000000000000500", originalFileName: "logo.png", contentType: "image/png", size: 70 })
    // orders, products and inventory
    expect(output("unfulfilledOrders").orders.map((o: { orderId: string }) => o.orderId)).toEqual(["d4e-5f6"])
    expect(output("order")).toMatchObject({ orderId: "a7b-8c9", status: "fulfilled", customerInfo: { fullName: "Grace Hopper" }, purchasedItems: [{ productName: "T-Shirt", count: 1 }] })
    expect(output("trackedOrder")).toMatchObject({ comment: "Left at the door", shippingProvider: "UPS", shippingTracking: "1Z999AA10123456784" })
    expect(output("unfulfilledOrder")).toMatchObject({ orderId: "a7b-8c9", status: "unfulfilled", fulfilledOn: null })
    expect(output("refundedOrder")).toMatchObject({ orderId: "f01-234", status: "refunded" })
    expect(output("storeProducts").items).toHaveLength(105)
    expect(output("createdProduct")).toMatchObject({ product: { fieldData: { name: "Catalog Cap", slug: "catalog-cap" } }, skus: [{ fieldData: { price: { value: 1500, unit: "USD" }, sku: "CAP-1" } }] })
    expect(output("renamedProduct")).toMatchObject({ id: output("createdProduct").product.id, fieldData: { name: "Catalog Hat", slug: "catalog-cap" } })
    expect(output("tshirt")).toMatchObject({ product: { fieldData: { name: "T-Shirt" } }, skus: [{ id: "5eed000000000000000ec101" }] })
    expect(output("tshirtInventory")).toEqual({ id: "5eed000000000000000ec101", quantity: 25, inventoryType: "finite" })
    expect(output("restocked")).toEqual({ id: "5eed000000000000000ec101", quantity: 30, inventoryType: "finite" })
    expect(output("storeAssets").assets.map((a: { originalFileName: string }) => a.originalFileName)).toEqual(["logo.png", "brochure.pdf", "price-list.csv"])
    // sites, collections and pages
    expect(output("sites").sites.map((s: { displayName: string }) => s.displayName)).toEqual(["Acme Store", "Portfolio"])
    expect(output("storeSite")).toMatchObject({ id: "5eed00000000000000000001", shortName: "acme-store", customDomains: [{ url: "shop.acme.example" }, { url: "www.acme.example" }] })
    expect(output("customDomains").customDomains.map((d: { id: string }) => d.id)).toEqual(["5eed0000000000000000d001", "5eed0000000000000000d002"])
    expect(output("collections").collections.map((c: { displayName: string }) => c.displayName)).toEqual(["Products", "Blog Posts", "SKUs"])
    expect(output("productsCollection").fields.map((f: { slug: string }) => f.slug)).toContain("category")
    expect(output("pages").pages.map((p: { publishedPath: string }) => p.publishedPath)).toEqual(["/", "/contact", "/about"])
    expect(output("aboutPage")).toMatchObject({ title: "About", seo: { title: "About | Acme Store" } })
    expect(output("aboutPageUpdated")).toMatchObject({
      id: "5eed000000000000000f6002",
      seo: { title: "About Acme", description: "Who makes Acme's things, and how." },
      openGraph: { title: "Meet Acme", titleCopied: false, description: "Who makes Acme's things, and how.", descriptionCopied: true }
    })
    expect(output("published")).toEqual({
      customDomains: [{ id: "5eed0000000000000000d001", url: "shop.acme.example", lastPublished: expect.stringMatching(/^\d{4}-/) }],
      publishToWebflowSubdomain: true
    })
    // redirects and custom code
    expect(output("redirects").redirects.map((r: { fromUrl: string }) => r.fromUrl)).toEqual(["/mostly-harmless", "/babel-fish"])
    expect(output("movedRedirect")).toEqual({ id: output("newRedirect").id, fromUrl: "/old-catalog", toUrl: "https://shop.acme.example/catalog" })
    expect(output("deletedRedirect")).toEqual({ id: "5eed000000000000000e0002", deleted: true })
    expect(output("registeredScripts").registeredScripts.map((s: { id: string }) => s.id)).toEqual(["cms_slider", "catalog_banner", "catalog_analytics"])
    expect(output("siteCodeRead").scripts).toEqual([
      { id: "cms_slider", version: "1.0.0", location: "header", attributes: { defer: "true" } },
      { id: "catalog_banner", version: "1.0.0", location: "footer", attributes: {} }
    ])
    expect(output("pageCodeRead").scripts).toEqual([{ id: "catalog_analytics", version: "2.1.0", location: "header", attributes: {} }])
    expect(output("codeBlocks").blocks.map((b: { type: string }) => b.type)).toEqual(["site", "page"])
    expect([output("pageCodeRemoved").deleted, output("siteCodeRemoved").deleted]).toEqual([true, true])
    // form submissions by site, updated and deleted; SKUs on their own
    expect(output("siteSubmissions").formSubmissions).toHaveLength(120)
    expect(output("taggedSubmission")).toMatchObject({ id: "5eed000000000000000f2001", formResponse: { Email: "reader1@example.com", Source: "catalog" } })
    expect(output("deletedSubmission")).toEqual({ id: "5eed000000000000000f2002", deleted: true })
    expect(output("posterSkus").skus).toMatchObject([{ fieldData: { name: "Poster A2", price: { value: 1499, unit: "USD" }, sku: "POS-A2" } }])
    expect(output("repricedSku")).toMatchObject({ id: output("posterSkus").skus[0].id, fieldData: { name: "Poster A2", slug: "poster-a2", price: { value: 1299, unit: "USD" } } })
  })
})
