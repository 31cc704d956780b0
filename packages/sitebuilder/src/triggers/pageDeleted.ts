import * as Webhooks from "../api/webhooks.js"
import * as Scopes from "../scopes.js"
import * as Webhook from "./webhook.js"

export const pageDeleted = Webhook.make({
  name: "pageDeleted",
  title: "Page Deleted",
  description: "Fires when a page is deleted from the site.",
  props: {},
  triggerType: "page_deleted",
  readScope: Scopes.pagesRead,
  payload: Webhooks.PageEvent,
  // A page is deleted once: its id is the event's.
  id: (page) => page.pageId
  // No sample: a deleted page can no longer be read.
})
