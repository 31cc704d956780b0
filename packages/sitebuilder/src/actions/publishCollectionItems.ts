import { Action } from "@x/core"
import * as Items from "../api/items.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const publishCollectionItems = Action.make({
  name: "publishCollectionItems",
  title: "Publish Collection Items",
  impact: "write", idempotent: true,
  description: "Publishes staged CMS items to the live site (without publishing the site); ids Webflow could not publish are in errors.",
  props: {
    siteId: Props.siteId(false),
    collectionId: Props.collectionId,
    itemIds: Props.itemIds
  },
  output: Items.Published,
  // cms:read for the collection and item dropdowns, as sites:read for the site's.
  scopes: [Scopes.cmsWrite, Scopes.cmsRead, Scopes.sitesRead],
  run: ({ collectionId, itemIds }, { client }) => Items.publishItems(client, collectionId, itemIds)
})
