import { Action, Property } from "@x/core"
import * as Items from "../api/items.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const createCollectionItems = Action.make({
  name: "createCollectionItems",
  title: "Create Collection Items",
  impact: "write", idempotent: false,
  description:
    "Creates up to 100 CMS items in one request, staged or published at once; items Webflow refuses are reported each with its reason, the others created.",
  props: {
    siteId: Props.siteId(false),
    collectionId: Props.collectionId,
    items: Props.newItems,
    live: Property.boolean({ title: "Publish now", description: "Create them on the live site too, not only staged.", defaultValue: false }),
    isDraft: Property.boolean({ title: "Drafts", description: "Staged as drafts: left out when the site is published.", defaultValue: false }),
    isArchived: Property.boolean({ title: "Archived", description: "Created archived.", defaultValue: false })
  },
  output: Items.BulkReport(Items.WrittenItem),
  scopes: [Scopes.cmsWrite, Scopes.cmsRead, Scopes.sitesRead],
  validate: ({ isDraft, items, live }) => [
    ...(live === true && isDraft === true ? [{ path: "isDraft", message: "a live item cannot be a draft" }] : []),
    // Webflow requires both of every item (the document's fieldData: name and slug required).
    ...items.flatMap((item, i) =>
      (["name", "slug"] as const).flatMap((field) =>
        typeof item[field] === "string" && item[field] !== "" ? [] : [{ path: `items[${i}].${field}`, message: "is required (a text)" }])
    ),
    ...Items.repeated(items.map((item) => item["slug"]), (i, slug) => ({ path: `items[${i}].slug`, message: `${String(slug)} is another item's slug already` }))
  ],
  run: ({ collectionId, isArchived, isDraft, items, live }, { client }) =>
    Items.writeMany(
      items,
      (batch) => Items.createItems(client, { collectionId, live: live ?? false, isDraft: isDraft ?? false, isArchived: isArchived ?? false }, batch),
      (_, created) => created?.id,
      // Webflow names a refused field `items[i].fieldData.<slug>` (live) or `fieldData[i].<slug>`: the item's `<slug>`.
      "fieldData."
    )
})
