import { Action } from "@x/core"
import * as Forms from "../api/forms.js"
import * as FormOptions from "../options/forms.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const getFormSubmission = Action.make({
  name: "getFormSubmission",
  title: "Get Form Submission",
  impact: "read",
  description: "Reads a form submission, with every field the visitor sent.",
  props: {
    siteId: Props.siteId(false),
    formId: Props.webflowId({ title: "Form", description: "Only to choose the submission (not sent).", dynamicOptions: FormOptions.forms }),
    submissionId: Props.webflowId({ title: "Submission", required: true, dynamicOptions: FormOptions.submissions })
  },
  output: Forms.FormSubmission,
  scopes: [Scopes.formsRead, Scopes.sitesRead],
  run: ({ submissionId }, { client }) => Forms.getSubmission(client, submissionId)
})
