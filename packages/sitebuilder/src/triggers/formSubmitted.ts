import { Property } from "@x/core"
import * as Webhooks from "../api/webhooks.js"
import * as FormOptions from "../options/forms.js"
import * as Scopes from "../scopes.js"
import * as Webhook from "./webhook.js"

export const formSubmitted = Webhook.make({
  name: "formSubmitted",
  title: "Form Submitted",
  description: "Fires when a visitor submits a form of the site, optionally only a form of this name.",
  props: {
    formName: Property.string({
      title: "Form name",
      description: "Only submissions of the form of this name (else: of every form).",
      dynamicOptions: FormOptions.formNames
    })
  },
  triggerType: "form_submission",
  readScope: Scopes.formsRead,
  payload: Webhooks.FormSubmitted,
  // Webflow filters by the form's name itself (the webhook's `filter`).
  filter: ({ formName }) => (formName === undefined ? undefined : { name: formName }),
  matches: (submission, { formName }) => formName === undefined || submission.name === formName,
  // Each submission has its own id.
  id: (submission) => submission.id,
  recent: (client, { formName, siteId }) => Webhooks.recentSubmissions(client, siteId, formName),
  history: {
    records: (client, { formName, siteId }) => Webhooks.submissionsOf(client, siteId, formName, Webhooks.catchUpScan),
    happenedAt: (submission) => submission.submittedAt
  }
})
