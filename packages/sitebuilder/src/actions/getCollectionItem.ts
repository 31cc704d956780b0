import { Action, Property } from "@x/core"
import * as Items from "../api/items.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const getCollectionItem = Action.make({
  name: "getCollectionItem",
  title: "Get Collection Item",
  impact: "read",
  description: "Reads a CMS item, staged or as published on the live site, with all its fields.",
  props: {
    siteId: Props.siteId(false),
    collectionId: Props.collectionId,
    itemId: Props.itemId,
    live: Property.boolean({ title: "Live item", description: "The published version (a NotFound while unpublished), not the staged one.", defaultValue: false })
  },
  output: Items.Item,
  scopes: [Scopes.cmsRead, Scopes.sitesRead],
  run: ({ collectionId, itemId, live }, { client }) => Items.getItem(client, collectionId, itemId, live ?? false)
})
