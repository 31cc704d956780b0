import * as Webhooks from "../api/webhooks.js"
import * as Scopes from "../scopes.js"
import * as Webhook from "./webhook.js"

export const pageCreated = Webhook.make({
  name: "pageCreated",
  title: "Page Created",
  description: "Fires when a page is added to the site (in Webflow's Designer).",
  props: {},
  triggerType: "page_created",
  readScope: Scopes.pagesRead,
  payload: Webhooks.PageEvent,
  // A page is created once: its id is the event's.
  id: (page) => page.pageId,
  // Sample: the pages created last (`GET /sites/{id}/pages`).
  recent: (client, { siteId }) => Webhooks.recentPages(client, siteId, "createdOn"),
  history: { records: (client, { siteId }) => Webhooks.pagesOf(client, siteId, "createdOn", Webhooks.catchUpScan), happenedAt: (page) => page.createdOn }
})
