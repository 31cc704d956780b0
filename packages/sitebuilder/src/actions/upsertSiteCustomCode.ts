import { Action } from "@x/core"
import * as CustomCode from "../api/customCode.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const upsertSiteCustomCode = Action.make({
  name: "upsertSiteCustomCode",
  title: "Apply Site Custom Code",
  impact: "write", idempotent: true,
  description: "Applies registered scripts to every page of a site, in the header or the footer: the list given replaces the app's scripts there.",
  props: {
    siteId: Props.siteId(true),
    scripts: Props.appliedScripts
  },
  validate: ({ scripts }) => Props.twiceApplied(scripts),
  output: CustomCode.CustomCode,
  scopes: [Scopes.customCodeWrite, Scopes.sitesRead],
  run: ({ scripts, siteId }, { client }) => CustomCode.upsertCustomCode(client, { siteId }, scripts)
})
