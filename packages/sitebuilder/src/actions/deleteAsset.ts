import { Action } from "@x/core"
import * as Assets from "../api/assets.js"
import * as Options from "../options/assets.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const deleteAsset = Action.make({
  name: "deleteAsset",
  title: "Delete Asset",
  impact: "destroy", idempotent: false,
  description: "Deletes an asset from its site.",
  props: {
    siteId: Props.siteId(false),
    assetId: Props.webflowId({ title: "Asset", required: true, dynamicOptions: Options.assets })
  },
  scopes: [Scopes.assetsWrite, Scopes.sitesRead],
  run: ({ assetId }, { client }) => Assets.deleteAsset(client, assetId)
})
