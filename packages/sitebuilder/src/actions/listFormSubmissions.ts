import { Action, Pagination } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Forms from "../api/forms.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const listFormSubmissions = Action.make({
  name: "listFormSubmissions",
  title: "List Form Submissions",
  impact: "read",
  description: "Lists a form's submissions, every field the visitor sent kept, across every page up to the limit.",
  props: {
    siteId: Props.siteId(false),
    formId: Props.formId,
    limit: Pagination.limit({ description: "The most submissions returned (Webflow pages by 100).", defaultValue: 100 })
  },
  output: Schema.Struct({ formSubmissions: Schema.Array(Forms.FormSubmission) }),
  scopes: [Scopes.formsRead, Scopes.sitesRead],
  run: ({ formId, limit }, { client }) =>
    Effect.map(Pagination.collect(Forms.submissions(client, formId, limit ?? 100)), (formSubmissions) => ({ formSubmissions }))
})
