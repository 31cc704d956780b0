/** Dynamic options of the e-commerce actions: a site's orders (every page), products, their SKUs, and its SKU collection. */
import { Choice, DynamicOptions, Pagination } from "@x/core"
import * as Effect from "effect/Effect"
import * as Collections from "../api/collections.js"
import * as Orders from "../api/orders.js"
import * as Products from "../api/products.js"

const allProducts = (client: Parameters<typeof Products.products>[0], siteId: string) => Pagination.collect(Products.products(client, siteId))

export const orders = DynamicOptions.make(["siteId"], ({ client, params }) =>
  Effect.map(Pagination.collect(Orders.orders(client, DynamicOptions.dependency(params, "siteId"))), (items) => Choice.fromRecords(items, (o) => o.orderId, (o) => o.orderId)))

export const products = DynamicOptions.make(["siteId"], ({ client, params }) =>
  Effect.map(allProducts(client, DynamicOptions.dependency(params, "siteId")), (items) =>
    Choice.fromRecords(items, (p) => p.product.fieldData.name, (p) => p.product.id)))

/** Every SKU of the site's products, as "product: SKU (code)". */
export const skus = DynamicOptions.make(["siteId"], ({ client, params }) =>
  Effect.map(allProducts(client, DynamicOptions.dependency(params, "siteId")), (items) =>
    Choice.fromRecords(
      items.flatMap((p) => p.skus.map((sku) => ({ sku, product: p.product.fieldData.name }))),
      ({ product, sku }) => `${product}: ${sku.fieldData.name}${sku.fieldData.sku == null ? "" : ` (${sku.fieldData.sku})`}`,
      ({ sku }) => sku.id
    )))

/**
 * The site's SKU collection: e-commerce sites have one, "SKUs" (the inventory endpoints name it);
 * every collection of the site if none is called so.
 */
export const skuCollections = DynamicOptions.make(["siteId"], ({ client, params }) =>
  Effect.map(Collections.listCollections(client, DynamicOptions.dependency(params, "siteId")), (collections) => {
    const skus = collections.filter((c) => /^skus?$/i.test(c.displayName ?? ""))
    return Choice.fromRecords(skus.length > 0 ? skus : collections, (c) => c.displayName ?? c.id, (c) => c.id)
  }))

/** The SKUs of one product, as "SKU (code)". */
export const productSkus = DynamicOptions.make(["siteId", "productId"], ({ client, params }) =>
  Effect.map(Products.getProduct(client, { siteId: DynamicOptions.dependency(params, "siteId"), productId: DynamicOptions.dependency(params, "productId") }), ({ skus }) =>
    Choice.fromRecords(skus, (sku) => `${sku.fieldData.name}${sku.fieldData.sku == null ? "" : ` (${sku.fieldData.sku})`}`, (sku) => sku.id)))
