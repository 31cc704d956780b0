import { Action } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Redirects from "../api/redirects.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const listRedirects = Action.make({
  name: "listRedirects",
  title: "List Redirects",
  impact: "read",
  description: "Lists a site's 301 redirects (Enterprise workspaces), each from a path to a path or URL.",
  props: { siteId: Props.siteId(true) },
  output: Schema.Struct({ redirects: Schema.Array(Redirects.Redirect) }),
  scopes: [Scopes.sitesRead],
  run: ({ siteId }, { client }) => Effect.map(Redirects.listRedirects(client, siteId), (redirects) => ({ redirects }))
})
