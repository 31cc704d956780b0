/**
 * Webhooks: a site's list and creation (`/sites/{site_id}/webhooks`), one webhook's read and
 * deletion (`/webhooks/{webhook_id}`), as the document says: a `triggerType` of its enum, a URL,
 * a `filter` only for `form_submission`, and at most 75 per trigger type per site. The scopes are
 * the document's prose (it gives these endpoints no `security`): `sites:read`, and
 * `sites:write` to create; deleting needs only `sites:read`, as it says.
 */
import { ApiError, created, invalid, noContent, notFound, objectIdOf, type Route, textOf } from "../http.js"
import { objectId, type Store, type Webhook, workspaceId } from "../store.js"

/** The document's `triggerType` enum. */
export const triggerTypes = [
  "form_submission", "site_publish", "page_created", "page_metadata_updated", "page_deleted", "ecomm_new_order",
  "ecomm_order_changed", "ecomm_inventory_changed", "user_account_added", "user_account_updated", "user_account_deleted",
  "collection_item_created", "collection_item_changed", "collection_item_deleted", "collection_item_published",
  "collection_item_unpublished", "comment_created"
] as const

/** "Limit of 75 registrations per `triggerType`, per site." */
export const perTriggerType = 75

/**
 * A webhook as Webflow answers it. `filter` is null when it has none, as the document's examples
 * show (its schema says object); `lastTriggered` is left out until a first delivery (the
 * document has no null for it, nor an example of a webhook never triggered).
 */
export const webhookJson = (w: Webhook) => ({
  id: w.id, triggerType: w.triggerType, siteId: w.siteId, workspaceId, createdOn: w.createdOn,
  ...(w.lastTriggered === null ? {} : { lastTriggered: w.lastTriggered }),
  filter: w.filter, url: w.url
})

const filterOf = (triggerType: string, filter: unknown): Webhook["filter"] => {
  if (filter === undefined || filter === null) return null
  if (triggerType !== "form_submission") {
    throw new ApiError(400, "incompatible_webhook_filter", "Filters are only supported for the form_submission trigger type")
  }
  const name = typeof filter === "object" ? (filter as { name?: unknown }).name : undefined
  if (typeof name !== "string" || name === "") throw invalid([{ param: "filter.name", description: "Field is required" }])
  return { name }
}

export const routes = (store: Store): ReadonlyArray<Route> => {
  const webhook = (id: string) => {
    const found = store.webhooks.get(objectIdOf(id, "webhook_id"))
    if (found === undefined) throw notFound("resource_not_found", "Webhook")
    return found
  }
  return [
    {
      method: "GET",
      path: "/sites/:site_id/webhooks",
      scope: "sites:read",
      handle: ({ path }) => {
        const site = store.site(path["site_id"]!)
        return { webhooks: [...store.webhooks.values()].filter((w) => w.siteId === site.id).map(webhookJson) }
      }
    },
    {
      method: "POST",
      path: "/sites/:site_id/webhooks",
      scope: "sites:write",
      handle: ({ body, path }) => {
        const site = store.site(path["site_id"]!)
        const triggerType = textOf(body, "triggerType")
        if (!(triggerTypes as ReadonlyArray<string>).includes(triggerType)) {
          throw new ApiError(400, "unsupported_webhook_trigger_type", `Unsupported trigger type: ${triggerType}`)
        }
        const url = textOf(body, "url")
        if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) throw invalid([{ param: "url", description: "must be a valid URL" }])
        const filter = filterOf(triggerType, body["filter"])
        const siblings = [...store.webhooks.values()].filter((w) => w.siteId === site.id && w.triggerType === triggerType)
        if (siblings.length >= perTriggerType) {
          throw invalid([{ param: "triggerType", description: `a site can have at most ${perTriggerType} webhooks of a trigger type` }])
        }
        const registered: Webhook = { id: objectId(), siteId: site.id, triggerType, url, filter, createdOn: new Date().toISOString(), lastTriggered: null }
        store.webhooks.set(registered.id, registered)
        return created(webhookJson(registered))
      }
    },
    { method: "GET", path: "/webhooks/:webhook_id", scope: "sites:read", handle: ({ path }) => webhookJson(webhook(path["webhook_id"]!)) },
    {
      method: "DELETE",
      path: "/webhooks/:webhook_id",
      scope: "sites:read",
      handle: ({ path }) => {
        store.webhooks.delete(webhook(path["webhook_id"]!).id)
        return noContent()
      }
    }
  ]
}
