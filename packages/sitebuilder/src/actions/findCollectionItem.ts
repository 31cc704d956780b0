import { Action, Property } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Items from "../api/items.js"
import * as CollectionOptions from "../options/collections.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

/** Ten pages of Webflow's: enough for most collections, bounded for the biggest. */
const defaultSearched = 1000

export const findCollectionItem = Action.make({
  name: "findCollectionItem",
  title: "Find Collection Item",
  impact: "read",
  description:
    "Finds the first CMS item whose field has the given value (name and slug are filtered by Webflow; any other field is " +
    "searched page by page up to the limit): found is false, and item null, when there is none.",
  props: {
    siteId: Props.siteId(false),
    collectionId: Props.collectionId,
    field: Property.string({ title: "Field", description: "The field's slug (name, slug, or any field of the collection).", required: true, defaultValue: "name", dynamicOptions: CollectionOptions.fields }),
    value: Property.string({ title: "Value", description: "The exact value: text, a number, true/false, an option or item id, an image's URL.", required: true }),
    live: Property.boolean({ title: "Live items only", description: "Search the published items, not the staged ones.", defaultValue: false }),
    limit: Property.integer({ title: "Items searched", description: "The most items read when the field is not name or slug.", minimum: 1, maximum: 10000, defaultValue: defaultSearched })
  },
  output: Schema.Struct({ found: Schema.Boolean, item: Schema.NullOr(Items.Item) }),
  scopes: [Scopes.cmsRead, Scopes.sitesRead],
  run: ({ limit, ...query }, { client }) =>
    Effect.map(Items.findItem(client, query, limit ?? defaultSearched), (item) => ({ found: item !== null, item }))
})
