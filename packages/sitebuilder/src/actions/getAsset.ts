import { Action } from "@x/core"
import * as Assets from "../api/assets.js"
import * as Options from "../options/assets.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const getAsset = Action.make({
  name: "getAsset",
  title: "Get Asset",
  impact: "read",
  description: "Reads an asset: its file name, type, size, hosted URL and responsive variants.",
  props: {
    siteId: Props.siteId(false),
    assetId: Props.webflowId({ title: "Asset", required: true, dynamicOptions: Options.assets })
  },
  output: Assets.Asset,
  scopes: [Scopes.assetsRead, Scopes.sitesRead],
  run: ({ assetId }, { client }) => Assets.getAsset(client, assetId)
})
