import { Action, Property } from "@x/core"
import * as Forms from "../api/forms.js"
import * as FormOptions from "../options/forms.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const updateFormSubmission = Action.make({
  name: "updateFormSubmission",
  title: "Update Form Submission",
  impact: "write", idempotent: true,
  description: "Sets hidden fields of a form submission (fields the form has but the visitor does not see), by field name.",
  props: {
    siteId: Props.siteId(false),
    formId: Props.webflowId({ title: "Form", description: "Only to choose the submission (not sent).", dynamicOptions: FormOptions.forms }),
    submissionId: Props.webflowId({ title: "Submission", required: true, dynamicOptions: FormOptions.submissions }),
    hiddenFields: Property.object({
      title: "Hidden fields",
      description: "The form's hidden fields by name, each with its new text: {\"source\": \"newsletter\"}.",
      required: true
    })
  },
  validate: ({ hiddenFields }) => {
    const entries = Object.entries(hiddenFields)
    return entries.length === 0
      ? [{ path: "hiddenFields", message: "give at least one hidden field" }]
      : entries.flatMap(([name, value]) => typeof value === "string" ? [] : [{ path: `hiddenFields.${name}`, message: "must be a text" }])
  },
  output: Forms.FormSubmission,
  scopes: [Scopes.formsWrite, Scopes.formsRead, Scopes.sitesRead],
  run: ({ hiddenFields, submissionId }, { client }) => Forms.updateSubmission(client, submissionId, hiddenFields as Readonly<Record<string, string>>)
})
