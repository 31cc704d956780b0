import * as Webhooks from "../api/webhooks.js"
import * as Scopes from "../scopes.js"
import * as Webhook from "./webhook.js"

export const pageMetadataUpdated = Webhook.make({
  name: "pageMetadataUpdated",
  title: "Page Metadata Updated",
  description: "Fires when a page's settings or SEO/Open Graph metadata are updated.",
  props: {},
  triggerType: "page_metadata_updated",
  readScope: Scopes.pagesRead,
  payload: Webhooks.PageEvent,
  // Each update has a new lastUpdated: the page's id with it is one update.
  id: (page) => `${page.pageId}@${page.lastUpdated ?? ""}`,
  // Sample: the pages updated last (`GET /sites/{id}/pages`).
  recent: (client, { siteId }) => Webhooks.recentPages(client, siteId, "lastUpdated")
})
