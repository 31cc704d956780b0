import { Action } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Sites from "../api/sites.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const listCustomDomains = Action.make({
  name: "listCustomDomains",
  title: "List Custom Domains",
  impact: "read",
  description: "Lists a site's custom domains, with when the site was last published to each.",
  props: { siteId: Props.siteId(true) },
  output: Schema.Struct({ customDomains: Schema.Array(Sites.CustomDomain) }),
  scopes: [Scopes.sitesRead],
  run: ({ siteId }, { client }) => Effect.map(Sites.customDomains(client, siteId), (customDomains) => ({ customDomains }))
})
