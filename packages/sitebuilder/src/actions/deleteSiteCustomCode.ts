import { Action } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as CustomCode from "../api/customCode.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const deleteSiteCustomCode = Action.make({
  name: "deleteSiteCustomCode",
  title: "Remove Site Custom Code",
  impact: "destroy", idempotent: true,
  description: "Removes every script the app applied to a site (they stay registered, to apply again).",
  props: { siteId: Props.siteId(true) },
  output: Schema.Struct({ siteId: Schema.String, deleted: Schema.Literal(true) }),
  scopes: [Scopes.customCodeWrite, Scopes.sitesRead],
  run: ({ siteId }, { client }) => Effect.as(CustomCode.deleteCustomCode(client, { siteId }), { siteId, deleted: true as const })
})
