import { Action, Property } from "@x/core"
import * as Sites from "../api/sites.js"
import * as PageOptions from "../options/pages.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const publishSite = Action.make({
  name: "publishSite",
  title: "Publish Site",
  impact: "write", idempotent: true,
  description:
    "Publishes the site (its pages and every staged CMS change) to custom domains and/or its Webflow subdomain. Webflow queues one publish a minute per site.",
  props: {
    siteId: Props.siteId(true),
    customDomains: Property.extend(
      Property.array({
        title: "Custom domains",
        description: "The ids of the custom domains to publish to.",
        items: Props.webflowId({ title: "Custom domain" }),
        maxItems: 100
      }),
      { dynamicOptions: PageOptions.customDomains }
    ),
    publishToWebflowSubdomain: Property.boolean({ title: "Publish to the Webflow subdomain", description: "<shortName>.webflow.io", defaultValue: false })
  },
  validate: ({ customDomains, publishToWebflowSubdomain }) =>
    (customDomains ?? []).length === 0 && publishToWebflowSubdomain !== true
      ? [{ path: "customDomains", message: "name a custom domain or publish to the Webflow subdomain" }]
      : [],
  output: Sites.Publish,
  scopes: [Scopes.sitesWrite, Scopes.sitesRead],
  run: ({ customDomains, publishToWebflowSubdomain, siteId }, { client }) =>
    Sites.publishSite(client, siteId, { customDomains: customDomains ?? [], publishToWebflowSubdomain: publishToWebflowSubdomain ?? false })
})
