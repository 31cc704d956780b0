import { Action, Property } from "@x/core"
import * as Schema from "effect/Schema"
import * as Items from "../api/items.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const deleteCollectionItems = Action.make({
  name: "deleteCollectionItems",
  title: "Delete Collection Items",
  impact: "destroy", idempotent: false,
  description:
    "Deletes up to 100 staged CMS items in one request, or with Live only unpublishes them (the staged items stay, as drafts); items Webflow refuses are reported each with its reason.",
  props: {
    siteId: Props.siteId(false),
    collectionId: Props.collectionId,
    itemIds: Props.itemIds,
    live: Property.boolean({ title: "Unpublish only", description: "Remove the live items, keep the staged ones.", defaultValue: false })
  },
  output: Items.BulkReport(Schema.Struct({ id: Schema.String })),
  scopes: [Scopes.cmsWrite, Scopes.cmsRead, Scopes.sitesRead],
  validate: ({ itemIds }) => Items.repeated(itemIds, (i, id) => ({ path: `itemIds[${i}]`, message: `${id} is given twice` })),
  run: ({ collectionId, itemIds, live }, { client }) =>
    Items.writeMany(itemIds, (batch) => Items.deleteItems(client, collectionId, live ?? false, batch), (id) => id)
})
