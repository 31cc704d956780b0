import { Action, Pagination } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Assets from "../api/assets.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const listAssets = Action.make({
  name: "listAssets",
  title: "List Assets",
  impact: "read",
  description: "Lists a site's assets (images and files), across every page up to the limit.",
  props: {
    siteId: Props.siteId(true),
    limit: Pagination.limit({ description: "The most assets returned (Webflow pages by 100).", defaultValue: 100 })
  },
  output: Schema.Struct({ assets: Schema.Array(Assets.Asset) }),
  scopes: [Scopes.assetsRead, Scopes.sitesRead],
  run: ({ limit, siteId }, { client }) =>
    Effect.map(Pagination.collect(Assets.assets(client, siteId, limit ?? 100)), (assets) => ({ assets }))
})
