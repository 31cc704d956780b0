import { Action, Pagination } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Forms from "../api/forms.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const listForms = Action.make({
  name: "listForms",
  title: "List Forms",
  impact: "read",
  description: "Lists a site's forms with their fields, across every page up to the limit.",
  props: {
    siteId: Props.siteId(true),
    limit: Pagination.limit({ description: "The most forms returned (Webflow pages by 100).", defaultValue: 100 })
  },
  output: Schema.Struct({ forms: Schema.Array(Forms.Form) }),
  scopes: [Scopes.formsRead, Scopes.sitesRead],
  run: ({ limit, siteId }, { client }) =>
    Effect.map(Pagination.collect(Forms.forms(client, siteId, limit ?? 100)), (forms) => ({ forms }))
})
