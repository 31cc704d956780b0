/**
 * The simulator's seeded records, the same on every start so that a workflow or a test can name
 * them: two sites (one with e-commerce), three collections ("Products" has a field of every
 * type and 130 items to page through, every 25th a draft; the rest published), orders in
 * each status, and "Archive" on the Portfolio site with exactly 250 items (three pages).
 */
import type * as Cms from "./cms.js"
import { createHash } from "node:crypto"
import { type Collection, type Form, type Inventory, type Item, seedId, type Store } from "./store.js"

/**
 * The seeded records' ids. Items of "Products" are `productItem(1)` … `productItem(130)`; every
 * 25th is a draft.
 */
export const seed = {
  sites: { store: seedId(1), portfolio: seedId(2) },
  collections: { products: seedId(3), blogPosts: seedId(4), projects: seedId(5) },
  productItem: (n: number) => seedId(0x100 + n),
  blogPost: (n: number) => seedId(0x200 + n),
  /** The options of the Products' "category" field. */
  categories: { apparel: seedId(0x401), gadgets: seedId(0x402) },
  orders: { unfulfilled: "a1b-2c3", unfulfilledToo: "d4e-5f6", fulfilled: "a7b-8c9", refunded: "dab-cde", pending: "f01-234", disputed: "b56-789", disputeLost: "c0d-e1f" },
  // forms: on the store site
  /** "Contact Us" (3 submissions) and "Newsletter" (120 submissions: two pages). */
  forms: { contact: seedId(0xf0001), newsletter: seedId(0xf0002) },
  /** The n-th submission of "Contact Us" (1–3) or of "Newsletter" (1–120). */
  contactSubmission: (n: number) => seedId(0xf1000 + n),
  newsletterSubmission: (n: number) => seedId(0xf2000 + n),
  /** The store site's assets: a logo (a 1×1 PNG) and a brochure (a small PDF). */
  assets: { logo: seedId(0x500), brochure: seedId(0x501) },
  /** "Archive" on the Portfolio site: exactly 250 items (three pages of Webflow's), `archiveItem(1)` … `archiveItem(250)`; every 25th a draft. */
  archive: { collection: seedId(0xa0000), size: 250, item: (n: number) => seedId(0xa0000 + n) },
  // sites, collections and pages
  /** The store site's custom domains. */
  customDomains: { shop: seedId(0xd001), www: seedId(0xd002) },
  /** The pages: the store's home, contact and about pages (the forms' pages), and the Portfolio's home and work pages. */
  pages: { home: seedId(0xf6001), contact: seedId(0xf6000), about: seedId(0xf6002), portfolioHome: seedId(0xf6010), work: seedId(0xf6011) },
  // orders, products and inventory: the store site's e-commerce
  /** The store site's "SKUs" collection (the inventory endpoints' `sku_collection_id`). */
  skuCollection: seedId(0xec000),
  /** T-Shirt ($19.99, 25 in stock), Mug ($12.99, 3 in stock), Poster ($9.99, infinite); then `sticker(1)` … `sticker(102)`: 105 products, two pages. */
  products: { tshirt: seedId(0xec001), mug: seedId(0xec002), poster: seedId(0xec003) },
  /** Each product's one SKU. */
  skus: { tshirt: seedId(0xec101), mug: seedId(0xec102), poster: seedId(0xec103) },
  sticker: (n: number) => seedId(0xec200 + n),
  stickerSku: (n: number) => seedId(0xec400 + n),
  // redirects and custom code: on the store site
  /** Its 301 redirects: /mostly-harmless → /earth and /babel-fish → /translate. */
  redirects: { mostlyHarmless: seedId(0xe0001), babelFish: seedId(0xe0002) },
  /** A script registered to it (hosted): "CMS Slider", id `cms_slider`, version 1.0.0; applied nowhere yet. */
  scripts: { cmsSlider: { id: "cms_slider", version: "1.0.0" } }
} as const

/** When the seeded records were made. */
export const seededAt = new Date("2026-11-01T12:00:00.000Z")

type FieldSeed = Omit<Cms.CollectionField, "id" | "isEditable" | "helpText" | "isRequired"> & { isRequired?: boolean }

/** The fields of a collection: `name` and `slug` (required), then `extra`. */
const fieldsOf = (collectionNumber: number, extra: ReadonlyArray<FieldSeed>): Array<Cms.CollectionField> =>
  [
    { slug: "name", displayName: "Name", type: "PlainText", isRequired: true, validations: { maxLength: 256 } },
    { slug: "slug", displayName: "Slug", type: "PlainText", isRequired: true, validations: { maxLength: 256 } },
    ...extra
  ].map((field, i) => ({ isRequired: false, ...field, id: seedId(0x1000 * collectionNumber + i), isEditable: true, helpText: "" }))

/** "Products": one field of every type Webflow has, with their validations. */
const productFields = fieldsOf(3, [
  { slug: "price", displayName: "Price", type: "Number", validations: { format: "decimal", allowNegative: false, precision: 2 } },
  { slug: "stock", displayName: "Stock", type: "Number", validations: { format: "integer", allowNegative: false, allowZero: true, maxValue: 10000 } },
  { slug: "featured", displayName: "Featured", type: "Switch", validations: null },
  { slug: "description", displayName: "Description", type: "RichText", validations: null },
  { slug: "category", displayName: "Category", type: "Option", validations: { options: [{ name: "Apparel", id: seed.categories.apparel }, { name: "Gadgets", id: seed.categories.gadgets }] } },
  { slug: "released", displayName: "Released", type: "DateTime", validations: null },
  { slug: "related", displayName: "Related product", type: "Reference", validations: { collectionId: seed.collections.products } },
  { slug: "posts", displayName: "Blog posts", type: "MultiReference", validations: { collectionId: seed.collections.blogPosts } },
  { slug: "contact-email", displayName: "Contact email", type: "Email", validations: null },
  { slug: "support-phone", displayName: "Support phone", type: "Phone", validations: null },
  { slug: "website", displayName: "Website", type: "Link", validations: null },
  { slug: "color", displayName: "Color", type: "Color", validations: null },
  { slug: "image", displayName: "Image", type: "Image", validations: null },
  { slug: "manual", displayName: "Manual", type: "File", validations: null }
])

export const seedStore = (store: Store) => {
  const at = seededAt.toISOString()
  const addSite = (id: string, displayName: string, ecommerce: boolean) =>
    store.sites.set(id, { id, displayName, shortName: displayName.toLowerCase().replace(/\W+/g, "-"), ecommerce, createdOn: at, lastPublished: at })
  const addCollection = (
    siteId: string, displayName: string, singularName: string, count: number, id: string, itemId: (n: number) => string,
    fields: Array<Cms.CollectionField>
  ) => {
    const collection: Collection = { id, siteId, displayName, singularName, slug: displayName.toLowerCase().replace(/\W+/g, "-"), fields }
    store.collections.set(collection.id, collection)
    for (let i = 1; i <= count; i++) {
      const createdOn = new Date(seededAt.getTime() + i * 60_000).toISOString()
      const fieldData = { name: `${singularName} ${i}`, slug: `${singularName.toLowerCase().replace(/\W+/g, "-")}-${i}`, price: i * 100, featured: i % 10 === 0 }
      // Every 25th is a draft, never published; the others were published when created.
      const draft = i % 25 === 0
      const item: Item = {
        id: itemId(i), collectionId: collection.id, fieldData, createdOn, lastUpdated: createdOn, isDraft: draft, isArchived: false,
        lastPublished: draft ? null : createdOn, live: draft ? undefined : { fieldData: { ...fieldData }, lastUpdated: createdOn }
      }
      store.items.set(item.id, item)
    }
  }
  addSite(seed.sites.store, "Acme Store", true)
  addSite(seed.sites.portfolio, "Portfolio", false)
  addCollection(seed.sites.store, "Products", "Product", 130, seed.collections.products, seed.productItem, productFields)
  addCollection(seed.sites.store, "Blog Posts", "Blog Post", 3, seed.collections.blogPosts, seed.blogPost,
    fieldsOf(4, [{ slug: "body", displayName: "Body", type: "RichText", validations: null }]))
  addCollection(seed.sites.portfolio, "Projects", "Project", 2, seed.collections.projects, (n) => seedId(0x300 + n), fieldsOf(5, []))
  const customers = ["Ada Lovelace", "Alan Turing", "Grace Hopper", "Edsger Dijkstra", "Barbara Liskov", "Donald Knuth", "Frances Allen"]
  const orderIds = Object.values(seed.orders)
  ;["unfulfilled", "unfulfilled", "fulfilled", "refunded", "pending", "disputed", "dispute-lost"].forEach((status, i) => {
    const acceptedOn = new Date(seededAt.getTime() + i * 3_600_000)
    store.orders.set(`${seed.sites.store}/${orderIds[i]}`, {
      siteId: seed.sites.store,
      // Webflow's order ids: two short hexadecimal groups, like "dfa-3f1".
      orderId: orderIds[i]!,
      status,
      acceptedOn: acceptedOn.toISOString(),
      fulfilledOn: status === "fulfilled" ? new Date(acceptedOn.getTime() + 60_000).toISOString() : null,
      customer: customers[i]!,
      total: 1999 + i * 500
    })
  })
  addCollection(seed.sites.portfolio, "Archive", "Archived Project", seed.archive.size, seed.archive.collection, seed.archive.item,
    fieldsOf(0xa1, [
      { slug: "price", displayName: "Price", type: "Number", validations: { format: "integer", allowNegative: false } },
      { slug: "featured", displayName: "Featured", type: "Switch", validations: null }
    ]))
  seedForms(store)
  seedAssets(store)
  seedSitesAndPages(store)
  seedShop(store)
  seedSiteCode(store)
}

// --- redirects and custom code ---
const seedSiteCode = (store: Store) => {
  const at = seededAt.toISOString()
  const site = seed.sites.store
  for (const [id, fromUrl, toUrl] of [[seed.redirects.mostlyHarmless, "/mostly-harmless", "/earth"], [seed.redirects.babelFish, "/babel-fish", "/translate"]] as const) {
    store.siteCode.redirects.set(id, { id, siteId: site, fromUrl, toUrl })
  }
  const { id, version } = seed.scripts.cmsSlider
  store.siteCode.scriptsOf(site).set(`${id}@${version}`, {
    id, siteId: site, displayName: "CMS Slider", version, canCopy: true, createdOn: at, lastUpdated: at, sourceCode: null,
    hostedLocation: "https://cdn.jsdelivr.net/npm/cms-slider@1.0.0/cmsslider.js",
    integrityHash: "sha384-J+YlJ8v0gpaRoKH7SbFbEmxOZlAxLiwNjfSsBhDooGa5roXlPPpXbEevck4J7YZ+"
  })
}

// --- orders, products and inventory ---
/** The store site's "SKUs" collection, its products with one SKU each, and their inventories. */
const seedShop = (store: Store) => {
  const at = seededAt.toISOString()
  const site = seed.sites.store
  store.skuCollections.set(site, seed.skuCollection)
  store.collections.set(seed.skuCollection, {
    id: seed.skuCollection, siteId: site, displayName: "SKUs", singularName: "SKU", slug: "sku",
    fields: fieldsOf(0xec, [{ slug: "sku", displayName: "SKU", type: "PlainText", validations: null }])
  })
  const add = (productId: string, skuId: string, name: string, code: string, cents: number, inventory: Inventory) => {
    const slug = name.toLowerCase().replace(/\W+/g, "-")
    store.products.set(productId, {
      id: productId, siteId: site, createdOn: at, lastUpdated: at, lastPublished: at, isDraft: false, isArchived: false,
      fieldData: { name, slug, description: `The ${name}.`, shippable: true, "tax-category": "standard-taxable", "default-sku": skuId }
    })
    store.skus.set(skuId, {
      id: skuId, productId, createdOn: at, lastUpdated: at, lastPublished: at,
      fieldData: { name, slug, price: { value: cents, unit: "USD", currency: "USD" }, sku: code }
    })
    store.inventories.set(skuId, inventory)
  }
  add(seed.products.tshirt, seed.skus.tshirt, "T-Shirt", "TS-1", 1999, { inventoryType: "finite", quantity: 25 })
  add(seed.products.mug, seed.skus.mug, "Mug", "MUG-1", 1299, { inventoryType: "finite", quantity: 3 })
  add(seed.products.poster, seed.skus.poster, "Poster", "POS-1", 999, { inventoryType: "infinite", quantity: 0 })
  for (let n = 1; n <= 102; n++) add(seed.sticker(n), seed.stickerSku(n), `Sticker ${n}`, `ST-${n}`, 199, { inventoryType: "finite", quantity: 100 })
}

// --- forms ---
/** Two forms of the store site with their submissions. */
const seedForms = (store: Store) => {
  const at = (minutes: number) => new Date(seededAt.getTime() + minutes * 60_000).toISOString()
  const uuid = (n: number) => `285042f7-d554-dc7f-102c-${n.toString(16).padStart(12, "0")}`
  const field = (n: number, displayName: string, type: Form["fields"][number]["type"], placeholder: string | null = null) =>
    ({ id: seedId(0xf5000 + n), elementId: uuid(n), displayName, type, placeholder })
  const addForm = (form: Omit<Form, "siteId" | "createdOn" | "pageId">, responses: ReadonlyArray<Record<string, unknown>>, submissionId: (n: number) => string) => {
    store.forms.set(form.id, { ...form, siteId: seed.sites.store, createdOn: at(0), pageId: seedId(0xf6000 + store.forms.size) })
    responses.forEach((formResponse, i) =>
      store.formSubmissions.set(submissionId(i + 1), { id: submissionId(i + 1), formId: form.id, dateSubmitted: at(60 + i), formResponse }))
  }
  addForm({
    id: seed.forms.contact, displayName: "Contact Us", pageName: "Contact", formElementId: "4e038d2c-6a1e-4953-7be9-a59a2b453177",
    fields: [field(1, "Name", "Plain", "Your name"), field(2, "Email", "Email", "you@example.com"), field(3, "Phone", "Phone"), field(4, "Message", "Plain")]
  }, [
    { Name: "Arthur Dent", Email: "arthur@example.com", Message: "Where is my towel?" },
    { Name: "Ford Prefect", Email: "ford@example.com", Phone: "+1 555 0100", Message: "Don't panic." },
    { Name: "Trillian", Email: "trillian@example.com", Message: "Is the restaurant open?" }
  ], seed.contactSubmission)
  addForm({
    id: seed.forms.newsletter, displayName: "Newsletter", pageName: "Home", formElementId: "4e038d2c-6a1e-4953-7be9-a59a2b453178",
    // "Source": a hidden field (where the reader signed up), set by an API update of a submission.
    fields: [field(5, "Email", "Email", "Your email"), { ...field(6, "Source", "Plain"), hidden: true }]
  }, Array.from({ length: 120 }, (_, i) => ({ Email: `reader${i + 1}@example.com` })), seed.newsletterSubmission)
}

/** The bytes of the seeded assets. */
export const seededAssetBytes = {
  logo: Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64"),
  brochure: Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")
}

const seedAssets = (store: Store) => {
  const at = seededAt.toISOString()
  const add = (id: string, fileName: string, contentType: string, bytes: Buffer) =>
    store.assetStore.assets.set(id, {
      id, siteId: seed.sites.store, fileName, fileHash: createHash("md5").update(bytes).digest("hex"), contentType,
      parentFolder: null, createdOn: at, lastUpdated: at, key: `${seed.sites.store}/${id}_${fileName}`, bytes
    })
  add(seed.assets.logo, "logo.png", "image/png", seededAssetBytes.logo)
  add(seed.assets.brochure, "brochure.pdf", "application/pdf", seededAssetBytes.brochure)
}

// --- sites, collections and pages ---
/** Two custom domains on the store site (never published to yet), and a few pages on each site. */
const seedSitesAndPages = (store: Store) => {
  const at = seededAt.toISOString()
  store.customDomains.set(seed.customDomains.shop, { id: seed.customDomains.shop, siteId: seed.sites.store, url: "shop.acme.example", lastPublished: null })
  store.customDomains.set(seed.customDomains.www, { id: seed.customDomains.www, siteId: seed.sites.store, url: "www.acme.example", lastPublished: null })
  const addPage = (id: string, siteId: string, title: string, slug: string, description: string) =>
    store.pages.set(id, {
      id, siteId, title, slug, createdOn: at, lastUpdated: at, draft: false, archived: false,
      seo: { title: `${title} | ${store.sites.get(siteId)!.displayName}`, description },
      openGraph: { title: "", titleCopied: true, description: "", descriptionCopied: true }
    })
  addPage(seed.pages.home, seed.sites.store, "Home", "", "Everything Acme sells.")
  addPage(seed.pages.contact, seed.sites.store, "Contact", "contact", "Write to Acme.")
  addPage(seed.pages.about, seed.sites.store, "About", "about", "Who makes Acme's things.")
  addPage(seed.pages.portfolioHome, seed.sites.portfolio, "Home", "", "A portfolio.")
  addPage(seed.pages.work, seed.sites.portfolio, "Work", "work", "Selected projects.")
}
