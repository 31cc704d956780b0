import { Action } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as CustomCode from "../api/customCode.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const deletePageCustomCode = Action.make({
  name: "deletePageCustomCode",
  title: "Remove Page Custom Code",
  impact: "destroy", idempotent: true,
  description: "Removes every script the app applied to one page (they stay registered, to apply again).",
  props: {
    siteId: Props.siteId(false),
    pageId: Props.pageId
  },
  output: Schema.Struct({ pageId: Schema.String, deleted: Schema.Literal(true) }),
  scopes: [Scopes.customCodeWrite, Scopes.pagesRead, Scopes.sitesRead],
  run: ({ pageId }, { client }) => Effect.as(CustomCode.deleteCustomCode(client, { pageId }), { pageId, deleted: true as const })
})
