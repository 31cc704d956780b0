/**
 * Webhooks: a site's registrations (`GET/POST /sites/{id}/webhooks`, `DELETE /webhooks/{id}`),
 * each event's payload as the document's `webhooks.<triggerType>` describes it, and the reads
 * that give the most recent records of an event (a trigger's sample).
 */
import { Pagination, type ProviderClient, ProviderRequest } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { paged } from "./shared.js"
import * as Collections from "./collections.js"
import * as Forms from "./forms.js"
import * as Items from "./items.js"
import * as Pages from "./pages.js"

const { path } = ProviderRequest

/** Webflow's event types (the document's `triggerType` enum), those the triggers use. */
export type TriggerType =
  | "form_submission" | "site_publish" | "ecomm_new_order" | "ecomm_order_changed" | "ecomm_inventory_changed"
  | "collection_item_created" | "collection_item_changed" | "collection_item_deleted" | "collection_item_unpublished"
  | "page_created" | "page_metadata_updated" | "page_deleted" | "collection_item_published" | "comment_created"

/** Only `form_submission` takes one: the name of the form to be told about. */
export const Filter = Schema.Struct({ name: Schema.String })
export type Filter = typeof Filter.Type

/** A webhook: its trigger type and URL are absent when Webflow leaves them out (such a webhook is never taken for ours). */
export const Webhook = Schema.Struct({
  id: Schema.String,
  triggerType: Schema.optional(Schema.String),
  url: Schema.optional(Schema.String),
  siteId: Schema.optional(Schema.String),
  filter: Schema.optional(Schema.NullOr(Filter))
})
export type Webhook = typeof Webhook.Type

export const listWebhooks = (client: ProviderClient.ProviderClient, siteId: string) =>
  Effect.map(
    client.json({ method: "GET", path: path`/sites/${siteId}/webhooks` }, Schema.Struct({ webhooks: Schema.Array(Webhook) })),
    (r) => r.webhooks
  )

export interface WebhookWrite {
  readonly siteId: string
  readonly triggerType: TriggerType
  readonly url: string
  readonly filter?: Filter | undefined
}

export const createWebhook = (client: ProviderClient.ProviderClient, webhook: WebhookWrite) =>
  client.json({
    method: "POST",
    path: path`/sites/${webhook.siteId}/webhooks`,
    body: ProviderRequest.jsonBody({
      triggerType: webhook.triggerType,
      url: webhook.url,
      ...(webhook.filter === undefined ? {} : { filter: webhook.filter })
    })
  }, Webhook)

export const deleteWebhook = (client: ProviderClient.ProviderClient, webhookId: string) =>
  client.void({ method: "DELETE", path: path`/webhooks/${webhookId}` })

/**
 * Whether a webhook is still registered (`GET /webhooks/{id}`): Webflow's webhook has no flag
 * that turns it off, so it is `active` until it is deleted (a 404: `gone`).
 */
export const registration = (client: ProviderClient.ProviderClient, webhookId: string) =>
  client.json({ method: "GET", path: path`/webhooks/${webhookId}` }, Webhook).pipe(
    Effect.as("active" as const),
    Effect.catchTag("NotFound", () => Effect.succeed("gone" as const))
  )

/**
 * The site's webhook with this URL, trigger type and filter if it has one, else a new one:
 * enabling again (a restart that lost the state) must not register a second webhook that
 * delivers every event twice, nor spend one of the 75 a trigger type may have per site.
 */
export const ensureWebhook = (client: ProviderClient.ProviderClient, webhook: WebhookWrite) =>
  Effect.flatMap(listWebhooks(client, webhook.siteId), (webhooks) => {
    const found = webhooks.find((w) =>
      w.url === webhook.url && w.triggerType === webhook.triggerType && (w.filter?.name ?? undefined) === webhook.filter?.name
    )
    return found === undefined ? createWebhook(client, webhook) : Effect.succeed(found)
  })

// --- payloads ---------------------------------------------------------------------------------

const optionalText = Schema.optional(Schema.NullOr(Schema.String))

/** `form_submission`: `id` is the submission's. */
export const FormSubmitted = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  siteId: Schema.String,
  formId: Schema.optional(Schema.String),
  formElementId: optionalText,
  submittedAt: Schema.String,
  data: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  schema: Schema.optional(Schema.Array(Schema.Struct({
    fieldName: Schema.String,
    fieldType: Schema.String,
    fieldElementId: Schema.optional(Schema.String)
  })))
})
export type FormSubmitted = typeof FormSubmitted.Type

/** A site's publish, as the trigger outputs it. */
export const SitePublished = Schema.Struct({
  siteId: Schema.String,
  publishedOn: Schema.String,
  domains: Schema.Array(Schema.String),
  publishedBy: Schema.optional(Schema.NullOr(Schema.Struct({ displayName: Schema.optional(Schema.String) })))
})
export type SitePublished = typeof SitePublished.Type

/**
 * `site_publish`: the document's schema names the fields `siteId` and `publishedOn`, its example
 * (and so, likely, the wire) `site` and `publishTime`; either is read.
 */
export const SitePublishPayload = Schema.transform(
  Schema.Struct({
    siteId: Schema.optional(Schema.String),
    site: Schema.optional(Schema.String),
    publishedOn: Schema.optional(Schema.String),
    publishTime: Schema.optional(Schema.String),
    domains: Schema.optionalWith(Schema.Array(Schema.String), { default: () => [] }),
    publishedBy: SitePublished.fields.publishedBy
  }).pipe(Schema.filter((p) => (p.siteId ?? p.site) !== undefined && (p.publishedOn ?? p.publishTime) !== undefined, {
    message: () => "a site publish names its site and its time"
  })),
  Schema.typeSchema(SitePublished),
  {
    strict: false,
    decode: (p) => ({ siteId: p.siteId ?? p.site, publishedOn: p.publishedOn ?? p.publishTime, domains: p.domains, publishedBy: p.publishedBy }),
    encode: (p) => p
  }
)

const Money = Schema.Struct({ unit: Schema.String, value: Schema.Union(Schema.Number, Schema.String), string: Schema.String })
const Fields = Schema.Record({ key: Schema.String, value: Schema.Unknown })

/** An order, as `ecomm_new_order` and `ecomm_order_changed` carry it (and the orders list answers it). */
export const OrderEvent = Schema.Struct({
  orderId: Schema.String,
  status: Schema.String,
  comment: optionalText,
  orderComment: optionalText,
  acceptedOn: optionalText,
  fulfilledOn: optionalText,
  refundedOn: optionalText,
  disputedOn: optionalText,
  disputeUpdatedOn: optionalText,
  disputeLastStatus: optionalText,
  customerPaid: Schema.optional(Schema.NullOr(Money)),
  netAmount: Schema.optional(Schema.NullOr(Money)),
  customerInfo: Schema.optional(Schema.NullOr(Schema.Struct({ fullName: optionalText, email: optionalText }))),
  shippingAddress: Schema.optional(Schema.NullOr(Fields)),
  billingAddress: Schema.optional(Schema.NullOr(Fields)),
  shippingProvider: optionalText,
  shippingTracking: optionalText,
  shippingTrackingURL: optionalText,
  purchasedItems: Schema.optional(Schema.Array(Fields)),
  purchasedItemsCount: Schema.optional(Schema.Number),
  isCustomerDeleted: Schema.optional(Schema.Boolean),
  isShippingRequired: Schema.optional(Schema.Boolean),
  totals: Schema.optional(Schema.NullOr(Fields))
})
export type OrderEvent = typeof OrderEvent.Type

/** `ecomm_inventory_changed`: a SKU's inventory. */
export const InventoryChanged = Schema.Struct({
  id: Schema.String,
  quantity: Schema.optional(Schema.NullOr(Schema.Number)),
  inventoryType: Schema.Literal("infinite", "finite")
})
export type InventoryChanged = typeof InventoryChanged.Type

/**
 * A CMS item as `collection_item_*` carry it: the item, with its site and collection. Deleted
 * and unpublished items may come without their fields (older payloads: ids only).
 */
export const ItemEvent = Schema.Struct({
  id: Schema.String,
  siteId: Schema.String,
  workspaceId: Schema.optional(Schema.String),
  collectionId: Schema.String,
  cmsLocaleId: optionalText,
  lastPublished: optionalText,
  lastUpdated: Schema.optional(Schema.String),
  createdOn: Schema.optional(Schema.String),
  isArchived: Schema.optional(Schema.Boolean),
  isDraft: Schema.optional(Schema.Boolean),
  fieldData: Schema.optional(Items.Item.fields.fieldData)
})
export type ItemEvent = typeof ItemEvent.Type

/** `page_created`, `page_metadata_updated`, `page_deleted`: the page, and when (`createdOn`, `lastUpdated`, `deletedOn`). */
export const PageEvent = Schema.Struct({
  siteId: Schema.String,
  pageId: Schema.String,
  pageTitle: optionalText,
  publishedPath: optionalText,
  createdOn: Schema.optional(Schema.String),
  lastUpdated: Schema.optional(Schema.String),
  deletedOn: Schema.optional(Schema.String)
})
export type PageEvent = typeof PageEvent.Type

/** Someone in a comment: Webflow's user id, email and name. */
const Commenter = Schema.Struct({ userId: Schema.String, email: optionalText, name: optionalText })

/**
 * `comment_created`: a new comment thread (`type: "new_comment"`) or a reply to one (`"reply"`),
 * on a page of the site (and a CMS item's page: `itemId`), made in the Designer or the editor.
 */
export const CommentEvent = Schema.Struct({
  threadId: Schema.String,
  commentId: Schema.String,
  type: Schema.String,
  siteId: Schema.String,
  pageId: Schema.String,
  localeId: optionalText,
  itemId: optionalText,
  breakpoint: optionalText,
  url: optionalText,
  content: Schema.String,
  isResolved: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  author: Schema.optional(Schema.NullOr(Commenter)),
  mentionedUsers: Schema.optionalWith(Schema.Array(Commenter), { default: () => [] }),
  createdOn: Schema.optional(Schema.String),
  lastUpdated: Schema.optional(Schema.String)
})
export type CommentEvent = typeof CommentEvent.Type

// --- the most recent records (samples) ---------------------------------------------------------

/** How many events a sample gives. */
export const sampleSize = 5
/** How many records of a list a sample reads at most, to find the newest (Webflow sorts no list by date). */
const sampleScan = 500
/**
 * How many records of a list a catch-up reads at most (a hundred of Webflow's pages): no list
 * is sorted or filtered by date, so those since a time are found among all of them.
 */
export const catchUpScan = 10_000

const newest = <A>(records: ReadonlyArray<A>, at: (a: A) => string | null | undefined) =>
  [...records].sort((a, b) => (at(b) ?? "").localeCompare(at(a) ?? "")).slice(0, sampleSize)

/** The site's orders, up to `maxItems`, in Webflow's order. */
export const siteOrders = (client: ProviderClient.ProviderClient, siteId: string, maxItems: number) =>
  Pagination.collect(paged(client, { path: path`/sites/${siteId}/orders`, key: "orders", maxItems }, OrderEvent))

/** The site's orders, the most recent first by `at`. */
export const recentOrders = (client: ProviderClient.ProviderClient, siteId: string, at: (order: OrderEvent) => string | null | undefined) =>
  Effect.map(siteOrders(client, siteId, sampleScan), (orders) => newest(orders, at))

/**
 * The site's form submissions (of the forms of this name, or of every form), up to `maxItems`
 * a form, as the `form_submission` webhook carries them: the form's name, the visitor's data, when.
 */
export const submissionsOf = (client: ProviderClient.ProviderClient, siteId: string, formName: string | undefined, maxItems: number) =>
  Effect.gen(function*() {
    const forms = (yield* Pagination.collect(Forms.forms(client, siteId))).filter((form) => formName === undefined || form.displayName === formName)
    const submitted = yield* Effect.forEach(forms, (form) =>
      Effect.map(Pagination.collect(Forms.submissions(client, form.id, maxItems)), (submissions) =>
        // A submission without its date cannot be placed among the latest: left out.
        submissions.flatMap((submission): Array<FormSubmitted> =>
          submission.dateSubmitted === undefined ? [] : [{
            id: submission.id,
            name: form.displayName ?? submission.displayName ?? "",
            siteId: submission.siteId ?? siteId,
            formId: form.id,
            formElementId: form.formElementId ?? null,
            submittedAt: submission.dateSubmitted,
            data: submission.formResponse
          }])))
    return submitted.flat()
  })

/** The site's latest form submissions (of the forms of this name, or of every form). */
export const recentSubmissions = (client: ProviderClient.ProviderClient, siteId: string, formName: string | undefined) =>
  Effect.map(submissionsOf(client, siteId, formName, sampleScan), (submitted) => newest(submitted, (submission) => submission.submittedAt))

const ListedItem = ItemEvent.pipe(Schema.omit("siteId", "collectionId", "workspaceId"))

/** The staged items of one collection, or of every collection of the site, up to `maxItems` a collection. */
export const itemsOf = (
  client: ProviderClient.ProviderClient,
  scope: { readonly siteId: string; readonly collectionId?: string | undefined },
  maxItems: number
) =>
  Effect.gen(function*() {
    const collections = scope.collectionId === undefined
      ? (yield* Collections.listCollections(client, scope.siteId)).map((c) => c.id)
      : [scope.collectionId]
    const all: Array<ItemEvent> = []
    for (const collectionId of collections) {
      const items = yield* Pagination.collect(Items.items(client, { collectionId }, ListedItem, maxItems))
      all.push(...items.map((item) => ({ ...item, siteId: scope.siteId, collectionId })))
    }
    return all
  })

/** The staged items of one collection, or of every collection of the site, the most recent first by `at`. */
export const recentItems = (
  client: ProviderClient.ProviderClient,
  scope: { readonly siteId: string; readonly collectionId?: string | undefined },
  at: (item: ItemEvent) => string | null | undefined
) => Effect.map(itemsOf(client, scope, sampleScan), (items) => newest(items, at))

const PublishedSite = Schema.Struct({
  id: Schema.String,
  shortName: Schema.optional(Schema.String),
  lastPublished: optionalText,
  customDomains: Schema.optional(Schema.Array(Schema.Struct({ url: Schema.optional(Schema.String) })))
})

/** The site's last publish (from `GET /sites`), if it was ever published. */
export const lastPublish = (client: ProviderClient.ProviderClient, siteId: string) =>
  Effect.map(
    client.json({ method: "GET", path: "/sites" }, Schema.Struct({ sites: Schema.Array(PublishedSite) })),
    (r): ReadonlyArray<SitePublished> => {
      const site = r.sites.find((s) => s.id === siteId)
      if (site?.lastPublished == null) return []
      const domains = [
        ...(site.shortName === undefined ? [] : [`${site.shortName}.webflow.io`]),
        ...(site.customDomains ?? []).flatMap((d) => (d.url === undefined ? [] : [d.url]))
      ]
      return [{ siteId, publishedOn: site.lastPublished, domains }]
    }
  )

/** The site's pages as the page_* events carry them, with their time `at` (`createdOn` or `lastUpdated`), up to `maxItems`. */
export const pagesOf = (client: ProviderClient.ProviderClient, siteId: string, at: "createdOn" | "lastUpdated", maxItems: number) =>
  Effect.map(Pagination.collect(Pages.pages(client, siteId, maxItems)), (pages) =>
    pages.map((page): PageEvent => ({
      siteId: page.siteId ?? siteId,
      pageId: page.id,
      pageTitle: page.title,
      publishedPath: page.publishedPath,
      ...(page[at] === undefined ? {} : { [at]: page[at] })
    })))

/** The site's pages as the page_* events carry them, the most recent first by `at` (`createdOn` or `lastUpdated`). */
export const recentPages = (client: ProviderClient.ProviderClient, siteId: string, at: "createdOn" | "lastUpdated") =>
  Effect.map(pagesOf(client, siteId, at, sampleScan), (pages) => newest(pages, (event) => event[at]))
