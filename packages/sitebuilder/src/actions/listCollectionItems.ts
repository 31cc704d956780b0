import { Action, Pagination, Property } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Items from "../api/items.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

/** One Webflow page: most lists are read in one request. */
const defaultLimit = 100

export const listCollectionItems = Action.make({
  name: "listCollectionItems",
  title: "List Collection Items",
  impact: "read",
  description: "Lists a collection's CMS items, staged or live, across every page up to the limit.",
  props: {
    siteId: Props.siteId(false),
    collectionId: Props.collectionId,
    live: Property.boolean({ title: "Live items only", description: "The published items, not the staged ones.", defaultValue: false }),
    limit: Pagination.limit({ description: "The most items returned (Webflow pages by 100).", defaultValue: defaultLimit }),
    name: Property.string({ title: "Name", description: "Only the items of exactly this name." }),
    slug: Property.string({ title: "Slug", description: "Only the item of exactly this slug." }),
    sortBy: Property.string({ title: "Sort by", choices: Items.sortBy.map((value) => ({ label: value, value })) }),
    sortOrder: Property.string({ title: "Sort order", choices: Items.sortOrder.map((value) => ({ label: value, value })) })
  },
  output: Schema.Struct({ items: Schema.Array(Items.Item) }),
  scopes: [Scopes.cmsRead, Scopes.sitesRead],
  run: ({ limit, ...query }, { client }) =>
    Effect.map(Pagination.collect(Items.items(client, query, Items.Item, limit ?? defaultLimit)), (items) => ({ items }))
})
