/**
 * E-commerce products with their SKUs: a site's list (paged, key `items`), one, a new product
 * with its SKU (and its inventory: infinite, as Webflow starts one), and a product's update
 * (answered without its SKUs, as the document has it). On a site without e-commerce: 409.
 */
import { invalid, paged, type Route } from "../http.js"
import { objectId, type Product, type Store } from "../store.js"

const publishStatus = (body: Readonly<Record<string, unknown>>) => {
  const status = body["publishStatus"] ?? "staging"
  if (status !== "staging" && status !== "live") throw invalid([{ param: "publishStatus", description: "must be one of staging, live" }])
  return status
}
const fieldDataOf = (body: Readonly<Record<string, unknown>>, param: string, required: boolean) => {
  const record = body[param] as { fieldData?: unknown } | undefined
  if (record === undefined && !required) return undefined
  const fieldData = record?.fieldData
  if (typeof fieldData !== "object" || fieldData === null || Array.isArray(fieldData)) throw invalid([{ param: `${param}.fieldData`, description: "Field is required" }])
  return fieldData as Record<string, unknown>
}
const text = (fieldData: Record<string, unknown>, param: string, field: string) => {
  const value = fieldData[field]
  if (typeof value !== "string" || value === "") throw invalid([{ param: `${param}.fieldData.${field}`, description: "Field is required" }])
  return value
}

export const routes = (store: Store): ReadonlyArray<Route> => {
  const uniqueSlug = (siteId: string, slug: string, except?: Product) => {
    if ([...store.products.values()].some((p) => p.siteId === siteId && p !== except && p.fieldData["slug"] === slug)) {
      throw invalid([{ param: "product.fieldData.slug", description: `Unique value is already in database: '${slug}'` }])
    }
  }
  return [
    {
      method: "GET",
      path: "/sites/:site_id/products",
      scope: "ecommerce:read",
      handle: ({ path, query }) => {
        const site = store.shop(path["site_id"]!)
        return paged("items", [...store.products.values()].filter((p) => p.siteId === site.id), query, store.productAndSkus)
      }
    },
    {
      method: "GET",
      path: "/sites/:site_id/products/:product_id",
      scope: "ecommerce:read",
      handle: ({ path }) => store.productAndSkus(store.product(store.shop(path["site_id"]!), path["product_id"]!))
    },
    {
      method: "POST",
      path: "/sites/:site_id/products",
      scope: "ecommerce:write",
      handle: ({ body, path }) => {
        const site = store.shop(path["site_id"]!)
        const status = publishStatus(body)
        const productData = fieldDataOf(body, "product", true)!
        const skuData = fieldDataOf(body, "sku", true)!
        const slug = text(productData, "product", "slug")
        text(productData, "product", "name")
        text(skuData, "sku", "name")
        text(skuData, "sku", "slug")
        const price = skuData["price"] as { value?: unknown; unit?: unknown } | undefined
        if (typeof price?.value !== "number" || price.value < 0 || typeof price.unit !== "string") {
          throw invalid([{ param: "sku.fieldData.price", description: "must be {value, unit}: a non-negative amount in the currency's smallest unit" }])
        }
        uniqueSlug(site.id, slug)
        const now = new Date().toISOString()
        const published = status === "live" ? now : null
        const skuId = objectId()
        const product: Product = {
          id: objectId(), siteId: site.id, createdOn: now, lastUpdated: now, lastPublished: published, isDraft: false, isArchived: false,
          fieldData: { shippable: true, ...productData, "default-sku": skuId }
        }
        store.products.set(product.id, product)
        store.skus.set(skuId, { id: skuId, productId: product.id, fieldData: { ...skuData }, createdOn: now, lastUpdated: now, lastPublished: published })
        store.inventories.set(skuId, { inventoryType: "infinite", quantity: 0 })
        return store.productAndSkus(product)
      }
    },
    {
      method: "PATCH",
      path: "/sites/:site_id/products/:product_id",
      scope: "ecommerce:write",
      handle: ({ body, path }) => {
        const site = store.shop(path["site_id"]!)
        const product = store.product(site, path["product_id"]!)
        const status = publishStatus(body)
        const changes = fieldDataOf(body, "product", false) ?? {}
        for (const field of ["name", "slug"]) if (field in changes) text(changes, "product", field)
        if (typeof changes["slug"] === "string") uniqueSlug(site.id, changes["slug"], product)
        product.fieldData = { ...product.fieldData, ...changes }
        product.lastUpdated = new Date().toISOString()
        if (status === "live") product.lastPublished = product.lastUpdated
        return store.productJson(product)
      }
    }
  ]
}
