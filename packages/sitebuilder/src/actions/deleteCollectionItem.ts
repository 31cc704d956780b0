import { Action, Property } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Items from "../api/items.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const deleteCollectionItem = Action.make({
  name: "deleteCollectionItem",
  title: "Delete Collection Item",
  impact: "destroy", idempotent: false,
  description:
    "Deletes a staged CMS item for good; with Live it only unpublishes it instead (the live site no longer shows it, the staged item stays as a draft), as unpublishCollectionItem does.",
  props: {
    siteId: Props.siteId(false),
    collectionId: Props.collectionId,
    itemId: Props.itemId,
    live: Property.boolean({ title: "Unpublish only", description: "Remove the live item, keep the staged one.", defaultValue: false })
  },
  output: Schema.Struct({ id: Schema.String, deleted: Schema.Literal(true), live: Schema.Boolean }),
  // cms:read for the collection and item dropdowns, as sites:read for the site's.
  scopes: [Scopes.cmsWrite, Scopes.cmsRead, Scopes.sitesRead],
  run: ({ collectionId, itemId, live }, { client }) =>
    Effect.as(Items.deleteItem(client, collectionId, itemId, live ?? false), { id: itemId, deleted: true as const, live: live ?? false })
})
