import { Action } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Forms from "../api/forms.js"
import * as FormOptions from "../options/forms.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const deleteFormSubmission = Action.make({
  name: "deleteFormSubmission",
  title: "Delete Form Submission",
  impact: "destroy", idempotent: false,
  description: "Deletes a form submission.",
  props: {
    siteId: Props.siteId(false),
    formId: Props.webflowId({ title: "Form", description: "Only to choose the submission (not sent).", dynamicOptions: FormOptions.forms }),
    submissionId: Props.webflowId({ title: "Submission", required: true, dynamicOptions: FormOptions.submissions })
  },
  output: Schema.Struct({ id: Schema.String, deleted: Schema.Literal(true) }),
  // forms:read for the form and submission dropdowns, as sites:read for the site's.
  scopes: [Scopes.formsWrite, Scopes.formsRead, Scopes.sitesRead],
  run: ({ submissionId }, { client }) => Effect.as(Forms.deleteSubmission(client, submissionId), { id: submissionId, deleted: true as const })
})
