import * as Webhooks from "../api/webhooks.js"
import * as Scopes from "../scopes.js"
import * as Webhook from "./webhook.js"

export const sitePublished = Webhook.make({
  name: "sitePublished",
  title: "Site Published",
  description: "Fires when the site is published (to its Webflow subdomain or its custom domains).",
  props: {},
  triggerType: "site_publish",
  readScope: Scopes.sitesRead,
  payload: Webhooks.SitePublishPayload,
  output: Webhooks.SitePublished,
  // A publish is the site at a time: a redelivery has the same time, the next publish another.
  id: (publish) => `${publish.siteId}@${publish.publishedOn}`,
  recent: (client, { siteId }) => Webhooks.lastPublish(client, siteId)
})
