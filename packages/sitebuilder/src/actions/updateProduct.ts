import { Action, Property } from "@x/core"
import * as Products from "../api/products.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const updateProduct = Action.make({
  name: "updateProduct",
  title: "Update Product",
  impact: "write", idempotent: true,
  description: "Changes a product's name, slug, description or shipping (those not given are kept).",
  props: {
    siteId: Props.siteId(true),
    productId: Props.productId,
    name: Property.string({ title: "Name", minLength: 1, maxLength: 256 }),
    slug: Property.string({ title: "Slug", pattern: /^[a-z0-9]+(?:-[a-z0-9]+)*$/, patternMessage: "must be lowercase letters, digits and dashes", maxLength: 256 }),
    description: Property.string({ title: "Description" }),
    shippable: Property.boolean({ title: "Shippable" }),
    publishStatus: Property.string({ title: "Publish status", choices: Products.publishStatuses.map((value) => ({ label: value, value })) })
  },
  output: Products.Product,
  scopes: [Scopes.ecommerceWrite, Scopes.ecommerceRead, Scopes.sitesRead],
  validate: ({ description, name, shippable, slug }) =>
    [name, slug, description, shippable].every((value) => value === undefined)
      ? [{ path: "name", message: "give at least one of name, slug, description, shippable" }]
      : [],
  run: ({ productId, publishStatus, siteId, ...fieldData }, { client }) =>
    Products.updateProduct(client, { siteId, productId, publishStatus, fieldData })
})
