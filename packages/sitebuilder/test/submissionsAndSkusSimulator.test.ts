/**
 * Form submissions by site, updated and deleted, and SKUs on their own, end to end: each action
 * run through the executor against the simulator (the store site's two forms and their
 * submissions, the Newsletter's hidden "Source" field, the seeded products), Webflow's refusals
 * typed, and the dropdowns.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Simulator from "../src/testing/simulator.js"
import { simulated } from "./support.js"

const { seed } = Simulator
const site = seed.sites.store
const simulation = simulated()
const { counted, options, run } = simulation

const newsletterElement = "4e038d2c-6a1e-4953-7be9-a59a2b453178"

describe("form submissions by site against the simulator", () => {
  it.live("listSiteFormSubmissions: both forms' 123 submissions in two requests; one form's by its element", () =>
    Effect.gen(function*() {
      const all = yield* counted(run("listSiteFormSubmissions", { siteId: site, limit: 500 }))
      expect(all.value.formSubmissions).toHaveLength(123)
      expect(all.requests).toBe(2)
      const contact = yield* run("listSiteFormSubmissions", { siteId: site, elementId: "4e038d2c-6a1e-4953-7be9-a59a2b453177" })
      expect(contact.formSubmissions.map((s: any) => s.formResponse.Name)).toEqual(["Arthur Dent", "Ford Prefect", "Trillian"])
      expect((yield* run("listSiteFormSubmissions", { siteId: seed.sites.portfolio })).formSubmissions).toEqual([])
      const choices = yield* options("listSiteFormSubmissions", "elementId", { siteId: site })
      expect(choices).toEqual([
        { label: "Contact Us (Contact)", value: "4e038d2c-6a1e-4953-7be9-a59a2b453177" },
        { label: "Newsletter (Home)", value: newsletterElement }
      ])
    }))

  it.live("updateFormSubmission sets a hidden field; a visible one is Webflow's 400; deleteFormSubmission removes it", () =>
    Effect.gen(function*() {
      const id = seed.newsletterSubmission(7)
      const updated = yield* run("updateFormSubmission", { siteId: site, formId: seed.forms.newsletter, submissionId: id, hiddenFields: { Source: "footer" } })
      expect(updated).toMatchObject({ id, formId: seed.forms.newsletter, formResponse: { Email: "reader7@example.com", Source: "footer" } })
      const visible = yield* Effect.flip(run("updateFormSubmission", { submissionId: id, hiddenFields: { Email: "x@example.com" } }))
      expect(visible).toMatchObject({ _tag: "InvalidInput", status: 400 })
      const refused = yield* counted(Effect.flip(run("updateFormSubmission", { submissionId: id, hiddenFields: {} })))
      expect(refused.value.issues.map((i: any) => i.path)).toEqual(["hiddenFields"])
      expect(refused.requests).toBe(0)
      expect(yield* run("deleteFormSubmission", { submissionId: id })).toEqual({ id, deleted: true })
      expect(yield* Effect.flip(run("getFormSubmission", { submissionId: id }))).toMatchObject({ _tag: "NotFound" })
      expect(yield* Effect.flip(run("deleteFormSubmission", { submissionId: id }))).toMatchObject({ _tag: "NotFound", status: 404 })
      // A token that reads forms only: Webflow's 403 names forms:write.
      const readOnly = { ...simulation.values, accessToken: simulation.sim.issueToken(["sites:read", "forms:read"]) }
      expect(yield* Effect.flip(run("deleteFormSubmission", { submissionId: seed.newsletterSubmission(8) }, readOnly))).toMatchObject({
        _tag: "PermissionDenied", missingScopes: ["forms:write"]
      })
    }))
})

describe("SKUs on their own against the simulator", () => {
  it.live("createSkus adds two variants to the T-shirt, priced in cents; the product lists three SKUs and is Advanced", () =>
    Effect.gen(function*() {
      const { skus } = yield* run("createSkus", {
        siteId: site,
        productId: seed.products.tshirt,
        skus: [
          { name: "T-Shirt L", slug: "t-shirt-l", price: 2199, sku: "TS-L", compareAtPrice: 2599 },
          { name: "T-Shirt XL", slug: "t-shirt-xl", price: 2299, skuValues: { size: "xl" } }
        ],
        publishStatus: "live"
      })
      expect(skus.map((s: any) => s.fieldData)).toEqual([
        { name: "T-Shirt L", slug: "t-shirt-l", price: { value: 2199, unit: "USD" }, "compare-at-price": { value: 2599, unit: "USD" }, sku: "TS-L" },
        { name: "T-Shirt XL", slug: "t-shirt-xl", price: { value: 2299, unit: "USD" }, "sku-values": { size: "xl" } }
      ])
      expect(skus[0].lastPublished).toMatch(/^\d{4}-/)
      const product = yield* run("getProduct", { siteId: site, productId: seed.products.tshirt })
      expect(product.skus.map((s: any) => s.fieldData.slug)).toEqual(["t-shirt", "t-shirt-l", "t-shirt-xl"])
      expect(product.product.fieldData["ec-product-type"]).toBe("b6ccc1830db4b1babeb06a9ac5f6dd76")
      // A slug the product's SKUs have: Webflow's 400.
      const taken = yield* Effect.flip(run("createSkus", { siteId: site, productId: seed.products.tshirt, skus: [{ name: "Again", slug: "t-shirt-l", price: 1 }] }))
      expect(taken).toMatchObject({ _tag: "InvalidInput", status: 400 })
      // On a site without e-commerce: a paid plan needed.
      const free = yield* Effect.flip(run("createSkus", { siteId: seed.sites.portfolio, productId: seed.products.tshirt, skus: [{ name: "X", slug: "x", price: 1 }] }))
      expect(free._tag).toBe("PaymentRequired")
    }))

  it.live("updateSku: only the price given, the name, slug and currency kept (read first, as the document requires them); the dropdown lists the product's SKUs", () =>
    Effect.gen(function*() {
      const { requests, value } = yield* counted(run("updateSku", { siteId: site, productId: seed.products.mug, skuId: seed.skus.mug, price: 1499 }))
      expect(value).toMatchObject({ id: seed.skus.mug, fieldData: { name: "Mug", slug: "mug", price: { value: 1499, unit: "USD" }, sku: "MUG-1" } })
      expect(requests).toBe(2)
      // All of name, slug, price and currency given: one request.
      const whole = yield* counted(run("updateSku", { siteId: site, productId: seed.products.mug, skuId: seed.skus.mug, name: "Big Mug", slug: "big-mug", price: 1599, currency: "USD" }))
      expect(whole.requests).toBe(1)
      expect(whole.value.fieldData).toMatchObject({ name: "Big Mug", slug: "big-mug", price: { value: 1599, unit: "USD" } })
      // A SKU of another product: NotFound, nothing written.
      const other = yield* Effect.flip(run("updateSku", { siteId: site, productId: seed.products.mug, skuId: seed.skus.poster, price: 1 }))
      expect(other._tag).toBe("NotFound")
      expect(simulation.sim.skus.get(seed.skus.poster)!.fieldData["price"]).toEqual({ value: 999, unit: "USD", currency: "USD" })
      const nothing = yield* counted(Effect.flip(run("updateSku", { siteId: site, productId: seed.products.mug, skuId: seed.skus.mug })))
      expect([nothing.value._tag, nothing.requests]).toEqual(["InvalidInput", 0])
      const choices = yield* options("updateSku", "skuId", { siteId: site, productId: seed.products.mug })
      expect(choices).toEqual([{ label: "Big Mug (MUG-1)", value: seed.skus.mug }])
    }))
})
