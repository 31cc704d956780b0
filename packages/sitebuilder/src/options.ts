/** Dynamic options: sites; a site's orders and collections; a collection's items (every page). */
import { Choice, DynamicOptions, Pagination } from "@x/core"
import * as Effect from "effect/Effect"
import * as Collections from "./api/collections.js"
import * as Items from "./api/items.js"
import * as Orders from "./api/orders.js"
import * as Sites from "./api/sites.js"

const param = (params: Readonly<Record<string, unknown>>, name: string) => String(params[name])

export const sites = DynamicOptions.make([], ({ client }) =>
  Effect.map(Sites.listSites(client), (items) => Choice.fromRecords(items, (s) => s.displayName ?? s.id, (s) => s.id)))

export const orders = DynamicOptions.make(["siteId"], ({ client, params }) =>
  Effect.map(Pagination.collect(Orders.orders(client, param(params, "siteId"))), (items) => Choice.fromRecords(items, (o) => o.orderId, (o) => o.orderId)))

export const collections = DynamicOptions.make(["siteId"], ({ client, params }) =>
  Effect.map(Collections.listCollections(client, param(params, "siteId")), (items) => Choice.fromRecords(items, (c) => c.displayName ?? c.id, (c) => c.id)))

export const items = DynamicOptions.make(["collectionId"], ({ client, params }) =>
  Effect.map(Pagination.collect(Items.items(client, { collectionId: param(params, "collectionId") }, Items.ListedItem)), (items) =>
    Choice.fromRecords(items, (i) => i.fieldData.name ?? i.fieldData.slug ?? i.id, (i) => i.id)))

/** A collection's fields, by slug: `name` and `slug` first, as Webflow lists them. */
export const fields = DynamicOptions.make(["collectionId"], ({ client, params }) =>
  Effect.map(Collections.collectionFields(client, param(params, "collectionId")), (fields) =>
    Choice.fromRecords(fields, (f) => `${f.displayName ?? f.slug} (${f.slug})`, (f) => f.slug)))
