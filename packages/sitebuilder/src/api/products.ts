/**
 * E-commerce products, their SKUs, and the SKUs' inventory. A product is an item of the site's
 * "Products" collection, a SKU (a purchasable variant, with its price) an item of its "SKUs"
 * collection: the inventory endpoints name that collection's id (`sku_collection_id`), which the
 * site's collections list gives (`GET /sites/{id}/collections`, the one with the slug `sku`).
 */
import { ConnectorError, type ProviderClient, ProviderRequest } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { paged } from "./shared.js"
import { paidPlan } from "./orders.js"

const { path } = ProviderRequest

const text = Schema.optional(Schema.NullOr(Schema.String))
const extra = Schema.Record({ key: Schema.String, value: Schema.Unknown })

/** A SKU's price: its value in the currency's smallest unit (cents), and the currency. */
export const Price = Schema.Struct({ value: Schema.optional(Schema.Number), unit: Schema.optional(Schema.String), currency: Schema.optional(Schema.String) })

/** A product's fields (the document's; any other field of the collection kept). */
export const ProductFields = Schema.Struct(
  {
    name: Schema.String,
    slug: Schema.String,
    description: text,
    shippable: Schema.optional(Schema.Boolean),
    "tax-category": text,
    "default-sku": text,
    "ec-product-type": text
  },
  extra
)

/** A product, without its SKUs (what `PATCH …/products/{id}` answers). */
export const Product = Schema.Struct({
  id: Schema.String,
  isArchived: Schema.optional(Schema.Boolean),
  isDraft: Schema.optional(Schema.Boolean),
  createdOn: text,
  lastUpdated: text,
  lastPublished: text,
  fieldData: ProductFields
})
export type Product = typeof Product.Type

/** A SKU: a purchasable variant of a product, with its price (any other field kept). */
export const Sku = Schema.Struct({
  id: Schema.String,
  createdOn: text,
  lastUpdated: text,
  lastPublished: text,
  fieldData: Schema.Struct(
    {
      name: Schema.String,
      slug: Schema.String,
      price: Schema.optional(Price),
      "compare-at-price": Schema.optional(Schema.NullOr(Price)),
      sku: text,
      "main-image": Schema.optional(Schema.Unknown),
      "sku-values": Schema.optional(extra)
    },
    extra
  )
})
export type Sku = typeof Sku.Type

/** A product with its SKUs, as Webflow lists, reads and creates them. */
/** A product and its SKUs (none, `[]`, when left out). */
export const ProductAndSkus = Schema.Struct({ product: Product, skus: Schema.optionalWith(Schema.Array(Sku), { default: () => [] }) })
export type ProductAndSkus = typeof ProductAndSkus.Type

/** A SKU's inventory: a `quantity` left when `finite`; `infinite` never runs out. */
export const Inventory = Schema.Struct({
  id: Schema.String,
  quantity: Schema.optional(Schema.NullOr(Schema.Number)),
  inventoryType: Schema.optional(Schema.Literal("infinite", "finite"))
})
export type Inventory = typeof Inventory.Type

export const publishStatuses = ["staging", "live"] as const

/** The site's products with their SKUs, every page up to `maxItems`. */
export const products = (client: ProviderClient.ProviderClient, siteId: string, maxItems?: number) =>
  paged(client, { path: path`/sites/${siteId}/products`, key: "items", maxItems }, ProductAndSkus)

export const getProduct = (client: ProviderClient.ProviderClient, product: { siteId: string; productId: string }) =>
  client.json({ method: "GET", path: path`/sites/${product.siteId}/products/${product.productId}` }, ProductAndSkus).pipe(paidPlan("reading products"))

export interface NewProduct {
  readonly siteId: string
  readonly publishStatus?: string | undefined
  readonly product: Readonly<Record<string, unknown>>
  readonly sku: Readonly<Record<string, unknown>>
}

/** `POST /sites/{id}/products`: a product and its default SKU. */
export const createProduct = (client: ProviderClient.ProviderClient, created: NewProduct) =>
  client.json({
    method: "POST",
    path: path`/sites/${created.siteId}/products`,
    body: ProviderRequest.jsonBody({ publishStatus: created.publishStatus, product: { fieldData: created.product }, sku: { fieldData: created.sku } })
  }, ProductAndSkus).pipe(paidPlan("creating products"))

/** `PATCH /sites/{id}/products/{id}`: only the fields given. */
export const updateProduct = (
  client: ProviderClient.ProviderClient,
  update: { siteId: string; productId: string; publishStatus?: string | undefined; fieldData: Readonly<Record<string, unknown>> }
) =>
  client.json({
    method: "PATCH",
    path: path`/sites/${update.siteId}/products/${update.productId}`,
    body: ProviderRequest.jsonBody({ publishStatus: update.publishStatus, product: { fieldData: update.fieldData } })
  }, Product).pipe(paidPlan("updating products"))

interface SkuRef { readonly skuCollectionId: string; readonly skuId: string }
const inventoryPath = (sku: SkuRef) => path`/collections/${sku.skuCollectionId}/items/${sku.skuId}/inventory`

export const getInventory = (client: ProviderClient.ProviderClient, sku: SkuRef) =>
  client.json({ method: "GET", path: inventoryPath(sku) }, Inventory).pipe(paidPlan("reading inventory"))

/** `quantity` sets the count, `updateQuantity` adds to it (negative: takes away); one of them, or neither for `infinite`. */
export const updateInventory = (
  client: ProviderClient.ProviderClient,
  sku: SkuRef & { inventoryType: "infinite" | "finite"; quantity?: number | undefined; updateQuantity?: number | undefined }
) =>
  client.json({
    method: "PATCH",
    path: inventoryPath(sku),
    body: ProviderRequest.jsonBody({ inventoryType: sku.inventoryType, quantity: sku.quantity, updateQuantity: sku.updateQuantity })
  }, Inventory).pipe(paidPlan("updating inventory"))

/** A SKU's fields as written: `price` in the currency's smallest unit; `sku-values` the product's option values it is. */
export interface SkuFields {
  readonly name?: string | undefined
  readonly slug?: string | undefined
  /** The price's value (cents) and its currency; either kept from the SKU when not given. */
  readonly price?: number | undefined
  readonly currency?: string | undefined
  readonly compareAtPrice?: number | undefined
  readonly sku?: string | undefined
  readonly skuValues?: Readonly<Record<string, string>> | undefined
}

/** The `fieldData` of a SKU written: a compare-at price in the price's currency. */
const skuFieldData = (fields: SkuFields & { price: number; currency: string }) => ({
  name: fields.name,
  slug: fields.slug,
  price: { value: fields.price, unit: fields.currency },
  "compare-at-price": fields.compareAtPrice === undefined ? undefined : { value: fields.compareAtPrice, unit: fields.currency },
  sku: fields.sku,
  "sku-values": fields.skuValues
})

/** What creating SKUs answers: the SKUs made. */
export const Skus = Schema.Struct({ skus: Schema.Array(Sku) })

/** `POST /sites/{id}/products/{id}/skus`: more SKUs (variants) of a product. */
export const createSkus = (
  client: ProviderClient.ProviderClient,
  created: { siteId: string; productId: string; publishStatus?: string | undefined; skus: ReadonlyArray<SkuFields & { price: number; currency: string }> }
) =>
  client.json({
    method: "POST",
    path: path`/sites/${created.siteId}/products/${created.productId}/skus`,
    body: ProviderRequest.jsonBody({ publishStatus: created.publishStatus, skus: created.skus.map((sku) => ({ fieldData: skuFieldData(sku) })) })
  }, Skus).pipe(paidPlan("creating SKUs"))

/**
 * `PATCH /sites/{id}/products/{id}/skus/{id}`. Webflow's document requires a SKU's name, slug
 * and price in every update: those not given (and the currency) are read from the product's SKU
 * first (`GET …/products/{id}`), so that only what is given changes.
 */
export const updateSku = (
  client: ProviderClient.ProviderClient,
  update: { siteId: string; productId: string; skuId: string; publishStatus?: string | undefined; fields: SkuFields }
) =>
  Effect.gen(function*() {
    const { fields } = update
    const given = fields.name !== undefined && fields.slug !== undefined && fields.price !== undefined && fields.currency !== undefined
    const current = given ? undefined : yield* Effect.flatMap(getProduct(client, update), ({ skus }) => {
      const found = skus.find((sku) => sku.id === update.skuId)
      return found === undefined
        ? Effect.fail(new ConnectorError.NotFound({ message: `SKU ${update.skuId} is not a SKU of product ${update.productId}` }))
        : Effect.succeed(found.fieldData)
    })
    const price = fields.price ?? current?.price?.value
    const currency = fields.currency ?? current?.price?.unit ?? current?.price?.currency
    if (price === undefined || currency === undefined) {
      const issues = [{ path: "price", message: `SKU ${update.skuId} has no price to keep: give price and currency` }]
      return yield* new ConnectorError.InvalidInput({ message: issues[0]!.message, issues })
    }
    const fieldData = skuFieldData({ ...fields, name: fields.name ?? current?.name, slug: fields.slug ?? current?.slug, price, currency })
    return yield* client.json({
      method: "PATCH",
      path: path`/sites/${update.siteId}/products/${update.productId}/skus/${update.skuId}`,
      body: ProviderRequest.jsonBody({ publishStatus: update.publishStatus, sku: { fieldData } })
    }, Sku).pipe(paidPlan("updating SKUs"))
  })
