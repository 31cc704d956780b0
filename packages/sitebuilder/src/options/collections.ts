/** Dynamic options of the CMS: a site's collections, a collection's items (every page) and fields. */
import { Choice, DynamicOptions, Pagination } from "@x/core"
import * as Effect from "effect/Effect"
import * as Collections from "../api/collections.js"
import * as Items from "../api/items.js"


export const collections = DynamicOptions.make(["siteId"], ({ client, params }) =>
  Effect.map(Collections.listCollections(client, DynamicOptions.dependency(params, "siteId")), (items) => Choice.fromRecords(items, (c) => c.displayName ?? c.id, (c) => c.id)))

export const items = DynamicOptions.make(["collectionId"], ({ client, params }) =>
  Effect.map(Pagination.collect(Items.items(client, { collectionId: DynamicOptions.dependency(params, "collectionId") }, Items.ListedItem)), (items) =>
    Choice.fromRecords(items, (i) => i.fieldData.name ?? i.fieldData.slug ?? i.id, (i) => i.id)))

/** A collection's fields, by slug: `name` and `slug` first, as Webflow lists them. */
export const fields = DynamicOptions.make(["collectionId"], ({ client, params }) =>
  Effect.map(Collections.collectionFields(client, DynamicOptions.dependency(params, "collectionId")), (fields) =>
    Choice.fromRecords(fields, (f) => `${f.displayName ?? f.slug} (${f.slug})`, (f) => f.slug)))
