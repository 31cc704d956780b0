import { Action, Property } from "@x/core"
import * as Items from "../api/items.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const updateCollectionItems = Action.make({
  name: "updateCollectionItems",
  title: "Update Collection Items",
  impact: "write", idempotent: true,
  description:
    "Changes up to 100 CMS items in one request (each its given fields and flags), staged or on the live site too; items Webflow refuses are reported each with its reason, the others changed.",
  props: {
    siteId: Props.siteId(false),
    collectionId: Props.collectionId,
    items: Props.itemChanges,
    live: Property.boolean({ title: "Update the live items", description: "Publish the changes at once, not only staged.", defaultValue: false })
  },
  output: Items.BulkReport(Items.WrittenItem),
  scopes: [Scopes.cmsWrite, Scopes.cmsRead, Scopes.sitesRead],
  validate: ({ items, live }) => [
    ...Items.repeated(items.map((item) => item.id), (i, id) => ({ path: `items[${i}].id`, message: `${id} is given twice` })),
    ...items.flatMap((item, i) => [
      ...(item.fieldData === undefined && item.isDraft === undefined && item.isArchived === undefined
        ? [{ path: `items[${i}]`, message: "give fieldData, isDraft or isArchived to change" }]
        : []),
      ...(live === true && item.isDraft === true ? [{ path: `items[${i}].isDraft`, message: "a live item cannot be a draft" }] : [])
    ])
  ],
  run: ({ collectionId, items, live }, { client }) =>
    Items.writeMany(items, (batch) => Items.updateItems(client, collectionId, live ?? false, batch), (change) => change.id)
})
