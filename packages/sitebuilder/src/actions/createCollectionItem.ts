import { Action, Property } from "@x/core"
import * as Items from "../api/items.js"
import * as Fields from "../fields.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const createCollectionItem = Action.make({
  name: "createCollectionItem",
  title: "Create Collection Item",
  impact: "write", idempotent: false,
  description: "Creates a CMS item with the collection's own fields, typed: staged (optionally as a draft) or published at once.",
  props: {
    siteId: Props.siteId(false),
    collectionId: Props.collectionId,
    fieldData: Fields.fieldData("create"),
    live: Property.boolean({ title: "Publish now", description: "Create it on the live site too, not only staged.", defaultValue: false }),
    isDraft: Property.boolean({ title: "Draft", description: "Staged as a draft: left out when the site is published.", defaultValue: false })
  },
  output: Items.WrittenItem,
  scopes: [Scopes.cmsWrite, Scopes.cmsRead, Scopes.sitesRead],
  validate: ({ isDraft, live }) => live === true && isDraft === true ? [{ path: "isDraft", message: "a live item cannot be a draft" }] : [],
  run: ({ collectionId, fieldData, isDraft, live }, { client }) =>
    Items.createItem(client, { collectionId, fieldData, live: live ?? false, isDraft: isDraft ?? false, isArchived: false }),
  // A create cut short: the item of that slug (or name) in that collection created since the attempt began.
  reconcile: ({ collectionId, fieldData, live }, { client }, { since }) =>
    Items.findCreatedItem(client, { collectionId, live: live ?? false, fieldData }, since)
})
