import { Action } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Redirects from "../api/redirects.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const deleteRedirect = Action.make({
  name: "deleteRedirect",
  title: "Delete Redirect",
  impact: "destroy", idempotent: false,
  description: "Removes a 301 redirect from a site (Enterprise workspaces).",
  props: {
    siteId: Props.siteId(true),
    redirectId: Props.redirectId
  },
  output: Schema.Struct({ id: Schema.String, deleted: Schema.Literal(true) }),
  scopes: [Scopes.sitesWrite, Scopes.sitesRead],
  run: ({ redirectId, siteId }, { client }) => Effect.as(Redirects.deleteRedirect(client, siteId, redirectId), { id: redirectId, deleted: true as const })
})
