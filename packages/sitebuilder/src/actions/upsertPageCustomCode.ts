import { Action } from "@x/core"
import * as CustomCode from "../api/customCode.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const upsertPageCustomCode = Action.make({
  name: "upsertPageCustomCode",
  title: "Apply Page Custom Code",
  impact: "write", idempotent: true,
  description: "Applies registered scripts to one page, in the header or the footer: the list given replaces the app's scripts there.",
  props: {
    siteId: Props.siteId(false),
    pageId: Props.pageId,
    scripts: Props.appliedScripts
  },
  validate: ({ scripts }) => Props.twiceApplied(scripts),
  output: CustomCode.CustomCode,
  scopes: [Scopes.customCodeWrite, Scopes.pagesRead, Scopes.sitesRead],
  run: ({ pageId, scripts }, { client }) => CustomCode.upsertCustomCode(client, { pageId }, scripts)
})
