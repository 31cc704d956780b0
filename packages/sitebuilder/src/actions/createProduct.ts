import { Action, Property } from "@x/core"
import * as Products from "../api/products.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

const slug = (title: string) =>
  Property.string({ title, pattern: /^[a-z0-9]+(?:-[a-z0-9]+)*$/, patternMessage: "must be lowercase letters, digits and dashes", maxLength: 256 })

export const createProduct = Action.make({
  name: "createProduct",
  title: "Create Product",
  impact: "write", idempotent: false,
  description: "Creates a product with its SKU (its price and code), staged or published.",
  props: {
    siteId: Props.siteId(true),
    name: Property.string({ title: "Name", required: true, minLength: 1, maxLength: 256 }),
    slug: Property.extend(slug("Slug"), { required: true as const }),
    description: Property.string({ title: "Description" }),
    shippable: Property.boolean({ title: "Shippable", description: "A physical product to ship.", defaultValue: true }),
    price: Property.integer({ title: "Price", description: "In the currency's smallest unit (cents): 1999 is 19.99.", required: true, minimum: 0 }),
    currency: Property.string({ title: "Currency", description: "ISO 4217, the site's store currency.", defaultValue: "USD", pattern: /^[A-Z]{3}$/, patternMessage: "must be a 3-letter currency code, e.g. USD" }),
    sku: Property.string({ title: "SKU code", description: "The stock-keeping code, e.g. TS-L." }),
    publishStatus: Property.string({
      title: "Publish status",
      description: "staging: saved, published with the site; live: on the live site at once.",
      choices: Products.publishStatuses.map((value) => ({ label: value, value })),
      defaultValue: "staging"
    })
  },
  output: Products.ProductAndSkus,
  scopes: [Scopes.ecommerceWrite, Scopes.ecommerceRead, Scopes.sitesRead],
  run: ({ currency, description, name, price, publishStatus, shippable, siteId, sku, slug }, { client }) =>
    Products.createProduct(client, {
      siteId,
      publishStatus: publishStatus ?? "staging",
      product: { name, slug, description, shippable: shippable ?? true },
      // The product's one SKU: named as the product.
      sku: { name, slug, price: { value: price, unit: currency ?? "USD" }, sku }
    })
})
