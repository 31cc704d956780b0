import { Action } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as CustomCode from "../api/customCode.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const listRegisteredScripts = Action.make({
  name: "listRegisteredScripts",
  title: "List Registered Scripts",
  impact: "read",
  description: "Lists the scripts registered to a site (800 at most), each with its id and version: what site and page custom code apply.",
  props: { siteId: Props.siteId(true) },
  output: Schema.Struct({ registeredScripts: Schema.Array(CustomCode.RegisteredScript) }),
  scopes: [Scopes.customCodeRead, Scopes.sitesRead],
  run: ({ siteId }, { client }) => Effect.map(CustomCode.registeredScripts(client, siteId), (registeredScripts) => ({ registeredScripts }))
})
