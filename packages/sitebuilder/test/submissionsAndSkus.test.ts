/**
 * Form submissions by site, updated and deleted, and SKUs on their own, on the wire (nock):
 * each action's request (method, path, query, body) pinned, Webflow's answers (the document's
 * examples) decoded, paging to the limit, bad input refused before any request, Webflow's
 * errors typed; and the dropdowns.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import nock from "nock"
import { ACCESS_TOKEN, API, executor, run, SITE, webflowError, withFetch } from "./support.js"

const webflow = () => nock(API, { reqheaders: { authorization: `Bearer ${ACCESS_TOKEN}`, accept: "application/json" } })
const options = (action: string, property: string, params: Record<string, unknown>) =>
  withFetch(executor.options(`sitebuilder/v1/${action}`, property, params))
const paths = (e: { _tag: string; issues?: ReadonlyArray<{ path: string }> }) => e.issues?.map((i) => i.path)

const FORM = "589a331aa51e760df7ccb89e"
const SUBMISSION = "6321ca84df3949bfc6752327"
const ELEMENT = "4e038d2c-6a1e-4953-7be9-a59a2b453177"
const PRODUCT = "660eb7a486d1d6e0412292d7"
const SKU = "66072fb71b89448912e2681c"

// The document's example of a submission.
const submission = (n: number) => ({
  id: `${SUBMISSION.slice(0, 20)}${String(n).padStart(4, "0")}`,
  formId: FORM,
  displayName: "Sample Form",
  siteId: SITE,
  workspaceId: "62749158efef318abc8d5a0f",
  formResponse: { "First Name": "Arthur", "Last Name": "Dent" },
  dateSubmitted: "2022-09-14T12:35:16.117Z"
})
const sku = (slug: string, fieldData: Record<string, unknown> = {}) => ({
  id: SKU,
  lastPublished: "2023-04-02T12:42:00.000Z",
  lastUpdated: "2023-04-02T12:42:00.000Z",
  createdOn: "2023-04-02T12:42:00.000Z",
  fieldData: { name: "Colorful T-shirt - Large", slug, price: { value: 2599, unit: "USD", currency: "USD" }, ...fieldData }
})

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})
afterAll(() => nock.enableNetConnect())

describe("form submissions: the wire", () => {
  it.effect("listSiteFormSubmissions: GET /v2/sites/{siteId}/form_submissions?elementId&offset&limit; a limit of 130 asks the second page for 30", () =>
    Effect.gen(function*() {
      const page = (from: number, count: number) => Array.from({ length: count }, (_, i) => submission(from + i))
      const scope = webflow()
        .get(`/v2/sites/${SITE}/form_submissions`).query({ offset: 0, limit: 100, elementId: ELEMENT })
        .reply(200, { formSubmissions: page(0, 100), pagination: { limit: 100, offset: 0, total: 400 } })
        .get(`/v2/sites/${SITE}/form_submissions`).query({ offset: 100, limit: 30, elementId: ELEMENT })
        .reply(200, { formSubmissions: page(100, 30), pagination: { limit: 30, offset: 100, total: 400 } })
        .get(`/v2/sites/${SITE}/form_submissions`).query({ offset: 0, limit: 100 })
        .reply(200, { formSubmissions: page(0, 2), pagination: { limit: 100, offset: 0, total: 2 } })
      const one = (yield* run("listSiteFormSubmissions", { siteId: SITE, elementId: ELEMENT, limit: 130 })) as { formSubmissions: ReadonlyArray<unknown> }
      expect(one.formSubmissions).toHaveLength(130)
      expect(one.formSubmissions[0]).toEqual(submission(0))
      expect(yield* run("listSiteFormSubmissions", { siteId: SITE })).toEqual({ formSubmissions: [submission(0), submission(1)] })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("updateFormSubmission: PATCH /v2/form_submissions/{id} {formSubmissionData}; deleteFormSubmission: DELETE (204); 409 forms_require_republish a Conflict", () =>
    Effect.gen(function*() {
      const scope = webflow()
        .patch(`/v2/form_submissions/${SUBMISSION}`, { formSubmissionData: { "hidden-field-name": "new value" } })
        .reply(200, { ...submission(0), id: SUBMISSION })
        .delete(`/v2/form_submissions/${SUBMISSION}`).reply(204)
        .delete(`/v2/form_submissions/${FORM}`).reply(409, webflowError("forms_require_republish", "To access this feature, the site needs to be republished."))
      expect(yield* run("updateFormSubmission", { siteId: SITE, formId: FORM, submissionId: SUBMISSION, hiddenFields: { "hidden-field-name": "new value" } }))
        .toEqual({ ...submission(0), id: SUBMISSION })
      expect(yield* run("deleteFormSubmission", { submissionId: SUBMISSION })).toEqual({ id: SUBMISSION, deleted: true })
      expect(yield* Effect.flip(run("deleteFormSubmission", { submissionId: FORM }))).toMatchObject({
        _tag: "Conflict", status: 409, message: "To access this feature, the site needs to be republished."
      })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("no hidden field, a value that is not a text, a bad id: refused before any request; the form dropdown by element id", () =>
    Effect.gen(function*() {
      expect(paths(yield* Effect.flip(run("updateFormSubmission", { submissionId: SUBMISSION, hiddenFields: {} })))).toEqual(["hiddenFields"])
      expect(paths(yield* Effect.flip(run("updateFormSubmission", { submissionId: SUBMISSION, hiddenFields: { source: 3 } })))).toEqual(["hiddenFields.source"])
      expect(paths(yield* Effect.flip(run("deleteFormSubmission", { submissionId: "nope" })))).toEqual(["submissionId"])
      expect(paths(yield* Effect.flip(run("listSiteFormSubmissions", { limit: 0 })))).toEqual(["siteId", "limit"])
      webflow().get(`/v2/sites/${SITE}/forms`).query({ offset: 0, limit: 100 }).reply(200, {
        forms: [{ id: FORM, displayName: "Email Form", pageName: "Home", formElementId: ELEMENT }, { id: SUBMISSION, displayName: "Old" }],
        pagination: { limit: 100, offset: 0, total: 2 }
      })
      expect(yield* options("listSiteFormSubmissions", "elementId", { siteId: SITE })).toEqual([{ label: "Email Form (Home)", value: ELEMENT }])
    }))
})

describe("SKUs: the wire", () => {
  it.effect("createSkus: POST /v2/sites/{siteId}/products/{productId}/skus {publishStatus, skus: [{fieldData: {name, slug, price: {value, unit}, …}}]}", () =>
    Effect.gen(function*() {
      const scope = webflow()
        .post(`/v2/sites/${SITE}/products/${PRODUCT}/skus`, {
          publishStatus: "staging",
          skus: [
            { fieldData: { name: "Colorful T-shirt - Large", slug: "colorful-t-shirt-large", price: { value: 2599, unit: "EUR" }, "compare-at-price": { value: 3000, unit: "EUR" }, sku: "CT-L" } },
            { fieldData: { name: "Colorful T-shirt - Small", slug: "colorful-t-shirt-small", price: { value: 2399, unit: "EUR" }, "sku-values": { color: "red" } } }
          ]
        })
        .reply(200, { skus: [sku("colorful-t-shirt-large")] })
      const created = yield* run("createSkus", {
        siteId: SITE,
        productId: PRODUCT,
        currency: "EUR",
        skus: [
          { name: "Colorful T-shirt - Large", slug: "colorful-t-shirt-large", price: 2599, compareAtPrice: 3000, sku: "CT-L" },
          { name: "Colorful T-shirt - Small", slug: "colorful-t-shirt-small", price: 2399, skuValues: { color: "red" } }
        ]
      })
      expect(created).toEqual({ skus: [sku("colorful-t-shirt-large")] })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("updateSku: the name, slug and price the document requires read from the product first when not given; all given, one PATCH", () =>
    Effect.gen(function*() {
      const product = { product: { id: PRODUCT, fieldData: { name: "Colorful T-shirt", slug: "colorful-t-shirt" } }, skus: [sku("colorful-t-shirt-large")] }
      const scope = webflow()
        .get(`/v2/sites/${SITE}/products/${PRODUCT}`).reply(200, product)
        .patch(`/v2/sites/${SITE}/products/${PRODUCT}/skus/${SKU}`, {
          publishStatus: "live",
          sku: { fieldData: { name: "Colorful T-shirt - Large", slug: "colorful-t-shirt-large", price: { value: 1999, unit: "USD" } } }
        })
        .reply(200, sku("colorful-t-shirt-large", { price: { value: 1999, unit: "USD" } }))
        .patch(`/v2/sites/${SITE}/products/${PRODUCT}/skus/${SKU}`, {
          sku: { fieldData: { name: "L", slug: "l", price: { value: 100, unit: "GBP" }, sku: "CT-L2" } }
        })
        .reply(200, sku("l"))
      expect(yield* run("updateSku", { siteId: SITE, productId: PRODUCT, skuId: SKU, price: 1999, publishStatus: "live" })).toMatchObject({ fieldData: { price: { value: 1999 } } })
      expect(yield* run("updateSku", { siteId: SITE, productId: PRODUCT, skuId: SKU, name: "L", slug: "l", price: 100, currency: "GBP", sku: "CT-L2" })).toMatchObject({ fieldData: { slug: "l" } })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("a price that is not whole cents, a slug twice, nothing to change: refused before any request; a SKU of another product a NotFound", () =>
    Effect.gen(function*() {
      const bad = yield* Effect.flip(run("createSkus", { siteId: SITE, productId: PRODUCT, skus: [{ name: "A", slug: "a", price: 19.99 }, { name: "B", slug: "a", price: -1 }] }))
      expect(paths(bad)).toEqual(["skus[0].price", "skus[1].price"])
      const twice = yield* Effect.flip(run("createSkus", { siteId: SITE, productId: PRODUCT, skus: [{ name: "A", slug: "a", price: 1 }, { name: "B", slug: "a", price: 2 }] }))
      expect(paths(twice)).toEqual(["skus[1].slug"])
      expect(paths(yield* Effect.flip(run("createSkus", { siteId: SITE, productId: PRODUCT, skus: [] })))).toEqual(["skus"])
      expect(paths(yield* Effect.flip(run("updateSku", { siteId: SITE, productId: PRODUCT, skuId: SKU })))).toEqual(["name"])
      webflow().get(`/v2/sites/${SITE}/products/${PRODUCT}`).reply(200, { product: { id: PRODUCT, fieldData: { name: "T", slug: "t" } }, skus: [] })
      expect(yield* Effect.flip(run("updateSku", { siteId: SITE, productId: PRODUCT, skuId: SKU, price: 1 }))).toMatchObject({ _tag: "NotFound" })
      webflow().get(`/v2/sites/${SITE}/products/${PRODUCT}`).reply(200, { product: { id: PRODUCT, fieldData: { name: "T", slug: "t" } }, skus: [sku("large", { sku: "CT-L" })] })
      expect(yield* options("updateSku", "skuId", { siteId: SITE, productId: PRODUCT })).toEqual([{ label: "Colorful T-shirt - Large (CT-L)", value: SKU }])
    }))
})
