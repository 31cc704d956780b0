/** Dynamic options of the assets area: a site's assets (every page). */
import { Choice, DynamicOptions, Pagination } from "@x/core"
import * as Effect from "effect/Effect"
import * as Assets from "../api/assets.js"

export const assets = DynamicOptions.make(["siteId"], ({ client, params }) =>
  Effect.map(Pagination.collect(Assets.assets(client, DynamicOptions.dependency(params, "siteId"))), (items) =>
    Choice.fromRecords(items, (a) => a.displayName ?? a.id, (a) => a.id)))
