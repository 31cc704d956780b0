/** What the collection item triggers share: an optional collection, and the item's event. */
import * as Webhooks from "../api/webhooks.js"
import * as CollectionOptions from "../options/collections.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"
import * as Webhook from "./webhook.js"

export const props = {
  collectionId: Props.webflowId({
    title: "Collection",
    description: "Only items of this collection (else: of any collection of the site).",
    dynamicOptions: CollectionOptions.collections
  })
}

/** The item triggers' common parts; each names its event type and what makes one event unique. */
export const common = {
  props,
  readScope: Scopes.cmsRead,
  payload: Webhooks.ItemEvent,
  // Webflow's webhook has no collection filter: the payload's collection decides.
  matches: (item: Webhooks.ItemEvent, { collectionId }: { readonly collectionId?: string | undefined }) =>
    collectionId === undefined || Webhook.same(item.collectionId, collectionId)
} as const

/** An item at one moment: a new change to it has a new `lastUpdated`, a redelivery the same. */
export const versionOf = (item: Webhooks.ItemEvent) => `${item.id}@${item.lastUpdated ?? ""}`
