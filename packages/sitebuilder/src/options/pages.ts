/** Dynamic options of the pages actions: a site's pages (every page of the list), as "title (path)". */
import { Choice, DynamicOptions, Pagination } from "@x/core"
import * as Effect from "effect/Effect"
import * as Pages from "../api/pages.js"
import * as Sites from "../api/sites.js"

export const pages = DynamicOptions.make(["siteId"], ({ client, params }) =>
  Effect.map(Pagination.collect(Pages.pages(client, DynamicOptions.dependency(params, "siteId"))), (items) =>
    Choice.fromRecords(items, (p) => p.publishedPath == null ? (p.title ?? p.id) : `${p.title ?? p.id} (${p.publishedPath})`, (p) => p.id)))

/** A site's custom domains. */
export const customDomains = DynamicOptions.make(["siteId"], ({ client, params }) =>
  Effect.map(Sites.customDomains(client, DynamicOptions.dependency(params, "siteId")), (items) => Choice.fromRecords(items, (d) => d.url ?? d.id, (d) => d.id)))
