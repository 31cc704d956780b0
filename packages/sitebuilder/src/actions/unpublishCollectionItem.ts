import { Action } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Items from "../api/items.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const unpublishCollectionItem = Action.make({
  name: "unpublishCollectionItem",
  title: "Unpublish Collection Item",
  impact: "write", idempotent: false,
  description: "Takes a CMS item off the live site without deleting it: the staged item stays, as a draft, to publish again later.",
  props: {
    siteId: Props.siteId(false),
    collectionId: Props.collectionId,
    itemId: Props.itemId
  },
  output: Schema.Struct({ id: Schema.String, unpublished: Schema.Literal(true) }),
  scopes: [Scopes.cmsWrite, Scopes.cmsRead, Scopes.sitesRead],
  run: ({ collectionId, itemId }, { client }) =>
    Effect.as(Items.deleteItem(client, collectionId, itemId, true), { id: itemId, unpublished: true as const })
})
