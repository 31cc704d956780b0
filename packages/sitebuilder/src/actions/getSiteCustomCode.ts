import { Action } from "@x/core"
import * as CustomCode from "../api/customCode.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const getSiteCustomCode = Action.make({
  name: "getSiteCustomCode",
  title: "Get Site Custom Code",
  impact: "read",
  description: "Reads the registered scripts the app applied to a whole site: id, version, header or footer, attributes.",
  props: { siteId: Props.siteId(true) },
  output: CustomCode.CustomCode,
  scopes: [Scopes.customCodeRead, Scopes.sitesRead],
  run: ({ siteId }, { client }) => CustomCode.getCustomCode(client, { siteId })
})
