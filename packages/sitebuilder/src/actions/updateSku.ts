import { Action, Property } from "@x/core"
import * as Products from "../api/products.js"
import * as ShopOptions from "../options/shop.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const updateSku = Action.make({
  name: "updateSku",
  title: "Update SKU",
  impact: "write", idempotent: true,
  description: "Changes a SKU's name, slug, price, compare-at price, code or option values; what is not given is kept.",
  props: {
    siteId: Props.siteId(true),
    productId: Props.productId,
    skuId: Props.webflowId({ title: "SKU", required: true, dynamicOptions: ShopOptions.productSkus }),
    name: Property.string({ title: "Name", minLength: 1, maxLength: 256 }),
    slug: Property.string({ title: "Slug", pattern: /^[a-z0-9]+(?:-[a-z0-9]+)*$/, patternMessage: "must be lowercase letters, digits and dashes", maxLength: 256 }),
    price: Property.integer({ title: "Price", description: "In the currency's smallest unit (cents): 1999 is 19.99.", minimum: 0 }),
    currency: Property.string({ title: "Currency", description: "ISO 4217; the SKU's own when not given.", pattern: /^[A-Z]{3}$/, patternMessage: "must be a 3-letter currency code, e.g. USD" }),
    compareAtPrice: Property.integer({ title: "Compare-at price", description: "The price before a sale, in cents.", minimum: 0 }),
    sku: Property.string({ title: "SKU code", description: "The stock-keeping code, e.g. TS-L." }),
    skuValues: Property.object({ title: "Option values", description: "The product's options this SKU is, by option id: {\"color\": \"<value id>\"}." }),
    publishStatus: Property.string({ title: "Publish status", choices: Products.publishStatuses.map((value) => ({ label: value, value })) })
  },
  validate: ({ compareAtPrice, currency, name, price, sku, skuValues, slug }) => [
    ...([name, slug, price, currency, compareAtPrice, sku, skuValues].every((value) => value === undefined)
      ? [{ path: "name", message: "give at least one of name, slug, price, currency, compareAtPrice, sku, skuValues" }]
      : []),
    ...Object.entries(skuValues ?? {}).flatMap(([option, value]) =>
      typeof value === "string" ? [] : [{ path: `skuValues.${option}`, message: "must be an option value's id (a text)" }])
  ],
  output: Products.Sku,
  scopes: [Scopes.ecommerceWrite, Scopes.ecommerceRead, Scopes.sitesRead],
  run: ({ productId, publishStatus, siteId, skuId, skuValues, ...fields }, { client }) =>
    Products.updateSku(client, { siteId, productId, skuId, publishStatus, fields: { ...fields, skuValues: skuValues as Readonly<Record<string, string>> | undefined } })
})
