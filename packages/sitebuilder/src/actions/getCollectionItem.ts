import { Action, Property } from "@x/core"
import * as Api from "../api.js"
import * as Options from "../options.js"
import * as Scopes from "../scopes.js"

export const getCollectionItem = Action.make({
  name: "getCollectionItem",
  title: "Get Collection Item",
  description: "Reads a CMS item, with all its fields.",
  props: {
    siteId: Options.siteId(false),
    collectionId: Property.string({ title: "Collection", required: true, ...Api.objectId, dynamicOptions: Options.collections }),
    itemId: Property.string({ title: "Item", required: true, ...Api.objectId, dynamicOptions: Options.items })
  },
  output: Api.Item,
  scopes: [Scopes.cmsRead, Scopes.sitesRead],
  run: ({ collectionId, itemId }, { client }) => Api.getItem(client, collectionId, itemId)
})
