/** Dynamic options: sites; a site's orders and collections; a collection's items (every page). */
import { Options, Property } from "@x/core"
import * as Effect from "effect/Effect"
import * as Api from "./api.js"

const param = (params: Readonly<Record<string, unknown>>, name: string) => String(params[name])

export const sites = Options.dynamic([], ({ client }) =>
  Effect.map(Api.listSites(client), (items) => Options.choices(items, (s) => s.displayName, (s) => s.id)))

export const orders = Options.dynamic(["siteId"], ({ client, params }) =>
  Effect.map(Api.listOrders(client, param(params, "siteId")), (items) => Options.choices(items, (o) => o.orderId, (o) => o.orderId)))

export const collections = Options.dynamic(["siteId"], ({ client, params }) =>
  Effect.map(Api.listCollections(client, param(params, "siteId")), (items) => Options.choices(items, (c) => c.displayName, (c) => c.id)))

export const items = Options.dynamic(["collectionId"], ({ client, params }) =>
  Effect.map(Api.listItems(client, param(params, "collectionId")), (items) =>
    Options.choices(items, (i) => i.fieldData.name ?? i.fieldData.slug ?? i.id, (i) => i.id)))

export const siteId = <const R extends boolean>(required: R) =>
  Property.string({ title: "Site", required, ...Api.objectId, dynamicOptions: sites })
