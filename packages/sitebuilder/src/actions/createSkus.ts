import { Action, Property } from "@x/core"
import * as Products from "../api/products.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

const slug = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

export const createSkus = Action.make({
  name: "createSkus",
  title: "Create SKUs",
  impact: "write", idempotent: false,
  description: "Adds SKUs (variants, each with its price) to a product; Webflow then shows the product as Advanced.",
  props: {
    siteId: Props.siteId(true),
    productId: Props.productId,
    skus: Property.array({
      title: "SKUs",
      required: true,
      minItems: 1,
      items: Property.object({
        title: "SKU",
        properties: {
          name: Property.string({ title: "Name", required: true, minLength: 1, maxLength: 256 }),
          slug: Property.string({ title: "Slug", required: true, pattern: slug, patternMessage: "must be lowercase letters, digits and dashes", maxLength: 256 }),
          price: Property.integer({ title: "Price", description: "In the currency's smallest unit (cents): 1999 is 19.99.", required: true, minimum: 0 }),
          compareAtPrice: Property.integer({ title: "Compare-at price", description: "The price before a sale, in cents.", minimum: 0 }),
          sku: Property.string({ title: "SKU code", description: "The stock-keeping code, e.g. TS-L." }),
          skuValues: Property.object({ title: "Option values", description: "The product's options this SKU is, by option id: {\"color\": \"<value id>\"}." })
        }
      })
    }),
    currency: Property.string({ title: "Currency", description: "ISO 4217, the site's store currency.", defaultValue: "USD", pattern: /^[A-Z]{3}$/, patternMessage: "must be a 3-letter currency code, e.g. USD" }),
    publishStatus: Property.string({
      title: "Publish status",
      description: "staging: saved, published with the site; live: on the live site at once.",
      choices: Products.publishStatuses.map((value) => ({ label: value, value })),
      defaultValue: "staging"
    })
  },
  validate: ({ skus }) =>
    skus.flatMap((sku, i) => [
      ...(skus.findIndex((other) => other.slug === sku.slug) < i ? [{ path: `skus[${i}].slug`, message: `${sku.slug} is another SKU's slug already` }] : []),
      ...Object.entries(sku.skuValues ?? {}).flatMap(([option, value]) =>
        typeof value === "string" ? [] : [{ path: `skus[${i}].skuValues.${option}`, message: "must be an option value's id (a text)" }])
    ]),
  output: Products.Skus,
  scopes: [Scopes.ecommerceWrite, Scopes.ecommerceRead, Scopes.sitesRead],
  run: ({ currency, productId, publishStatus, siteId, skus }, { client }) =>
    Products.createSkus(client, {
      siteId,
      productId,
      publishStatus: publishStatus ?? "staging",
      skus: skus.map((sku) => ({ ...sku, skuValues: sku.skuValues as Readonly<Record<string, string>> | undefined, currency: currency ?? "USD" }))
    })
})
