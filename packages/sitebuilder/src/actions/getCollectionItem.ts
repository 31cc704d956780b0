import { Action } from "@x/core"
import * as Items from "../api/items.js"
import * as Options from "../options.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const getCollectionItem = Action.make({
  name: "getCollectionItem",
  title: "Get Collection Item",
  description: "Reads a CMS item, with all its fields.",
  props: {
    siteId: Props.siteId(false),
    collectionId: Props.webflowId({ title: "Collection", required: true, dynamicOptions: Options.collections }),
    itemId: Props.webflowId({ title: "Item", required: true, dynamicOptions: Options.items })
  },
  output: Items.Item,
  scopes: [Scopes.cmsRead, Scopes.sitesRead],
  run: ({ collectionId, itemId }, { client }) => Items.getItem(client, collectionId, itemId)
})
