import { Action } from "@x/core"
import * as Sites from "../api/sites.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const getSite = Action.make({
  name: "getSite",
  title: "Get Site",
  impact: "read",
  description: "Reads a site: its names, custom domains, locales and when it was last published.",
  props: { siteId: Props.siteId(true) },
  output: Sites.Site,
  scopes: [Scopes.sitesRead],
  run: ({ siteId }, { client }) => Sites.getSite(client, siteId)
})
