/**
 * E-commerce products with their SKUs: a site's list (paged, key `items`), one, a new product
 * with its SKU (and its inventory: infinite, as Webflow starts one), and a product's update
 * (answered without its SKUs, as the document has it); SKUs added to a product or changed (a
 * name, slug and price each time, as the document requires). On a site without e-commerce: 409.
 */
import { invalid, notFound, objectIdOf, paged, type Route } from "../http.js"
import { objectId, type Product, type Sku, type Store } from "../store.js"

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
  /** A SKU's slug is unique among its product's SKUs (and the others made with it). */
  const uniqueSkuSlug = (product: Product, slug: string, param: string, others: ReadonlyArray<Record<string, unknown>>, except?: Sku) => {
    const taken = [...store.skus.values()].some((k) => k.productId === product.id && k !== except && k.fieldData["slug"] === slug)
    if (taken || others.some((fieldData) => fieldData["slug"] === slug)) {
      throw invalid([{ param: `${param}.fieldData.slug`, description: `Unique value is already in database: '${slug}'` }])
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
    },
    // SKUs on their own: more of a product's, or one changed; either makes the product Advanced.
    {
      method: "POST",
      path: "/sites/:site_id/products/:product_id/skus",
      scope: "ecommerce:write",
      handle: ({ body, path }) => {
        const product = store.product(store.shop(path["site_id"]!), path["product_id"]!)
        const status = publishStatus(body)
        const skus = body["skus"]
        if (!Array.isArray(skus) || skus.length === 0) throw invalid([{ param: "skus", description: "Field is required" }])
        const fields = skus.map((sku: unknown, i) => skuFieldData(sku, `skus[${i}]`))
        fields.forEach((fieldData, i) => uniqueSkuSlug(product, fieldData["slug"] as string, `skus[${i}]`, fields.slice(0, i)))
        const now = new Date().toISOString()
        const made = fields.map((fieldData) => {
          const sku = { id: objectId(), productId: product.id, fieldData: { ...fieldData }, createdOn: now, lastUpdated: now, lastPublished: status === "live" ? now : null }
          store.skus.set(sku.id, sku)
          store.inventories.set(sku.id, { inventoryType: "infinite", quantity: 0 })
          return sku
        })
        advanced(product, now)
        return { skus: made.map(store.skuJson) }
      }
    },
    {
      method: "PATCH",
      path: "/sites/:site_id/products/:product_id/skus/:sku_id",
      scope: "ecommerce:write",
      handle: ({ body, path }) => {
        const product = store.product(store.shop(path["site_id"]!), path["product_id"]!)
        const sku = store.skus.get(objectIdOf(path["sku_id"]!, "sku_id"))
        if (sku === undefined || sku.productId !== product.id) throw notFound("resource_not_found", "SKU")
        const status = publishStatus(body)
        const fieldData = skuFieldData(body["sku"], "sku")
        uniqueSkuSlug(product, fieldData["slug"] as string, "sku", [], sku)
        const now = new Date().toISOString()
        sku.fieldData = { ...sku.fieldData, ...fieldData }
        sku.lastUpdated = now
        if (status === "live") sku.lastPublished = now
        advanced(product, now)
        return store.skuJson(sku)
      }
    }
  ]
}

/** "Advanced", the last of the document's product types (Physical, Digital, Service, Advanced). */
const advancedProductType = "b6ccc1830db4b1babeb06a9ac5f6dd76"
const advanced = (product: Product, now: string) => {
  product.fieldData = { ...product.fieldData, "ec-product-type": advancedProductType }
  product.lastUpdated = now
}

/** A SKU's `fieldData` as the document requires it: a name, a slug and a price (a non-negative value and its unit). */
const skuFieldData = (sku: unknown, param: string) => {
  const fieldData = (sku as { fieldData?: unknown } | undefined)?.fieldData
  if (typeof fieldData !== "object" || fieldData === null || Array.isArray(fieldData)) throw invalid([{ param: `${param}.fieldData`, description: "Field is required" }])
  const record = fieldData as Record<string, unknown>
  text(record, param, "name")
  text(record, param, "slug")
  const price = record["price"] as { value?: unknown; unit?: unknown } | undefined
  if (typeof price?.value !== "number" || price.value < 0 || typeof price.unit !== "string") {
    throw invalid([{ param: `${param}.fieldData.price`, description: "must be {value, unit}: a non-negative amount in the currency's smallest unit" }])
  }
  return record
}

