import { Action, FileInput } from "@x/core"
import * as Assets from "../api/assets.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const uploadAsset = Action.make({
  name: "uploadAsset",
  title: "Upload Asset",
  impact: "write", idempotent: false,
  description: "Uploads a file (from a path, a URL or base64) as an asset of a site: images up to 4 MB, other files up to 10 MB.",
  props: {
    siteId: Props.siteId(true),
    file: FileInput.property({ title: "File", required: true, maxBytes: Assets.limits.document }),
    parentFolder: Props.webflowId({ title: "Asset folder", description: "The id of the asset folder to put it in (default: the site's root)." })
  },
  output: Assets.Asset,
  scopes: [Scopes.assetsWrite, Scopes.assetsRead, Scopes.sitesRead],
  run: ({ file, parentFolder, siteId }, { client }) => Assets.uploadAsset(client, siteId, file, { parentFolder })
})
