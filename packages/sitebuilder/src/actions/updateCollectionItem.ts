import { Action, Property } from "@x/core"
import * as Items from "../api/items.js"
import * as Fields from "../fields.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const updateCollectionItem = Action.make({
  name: "updateCollectionItem",
  title: "Update Collection Item",
  impact: "write", idempotent: true,
  description: "Changes a CMS item's fields (typed by its collection; those not given are kept), staged or on the live site too.",
  props: {
    siteId: Props.siteId(false),
    collectionId: Props.collectionId,
    itemId: Props.itemId,
    fieldData: Fields.fieldData("update"),
    live: Property.boolean({ title: "Update the live item", description: "Publish the change at once, not only staged.", defaultValue: false }),
    isDraft: Property.boolean({ title: "Draft", description: "Set (or clear) the staged item's draft state." }),
    isArchived: Property.boolean({ title: "Archived", description: "Archive (or restore) the item." })
  },
  output: Items.WrittenItem,
  scopes: [Scopes.cmsWrite, Scopes.cmsRead, Scopes.sitesRead],
  validate: ({ isDraft, live }) => live === true && isDraft === true ? [{ path: "isDraft", message: "a live item cannot be a draft" }] : [],
  run: ({ collectionId, fieldData, isArchived, isDraft, itemId, live }, { client }) =>
    Items.updateItem(client, { collectionId, itemId, fieldData, live: live ?? false, isDraft, isArchived })
})
