/**
 * Forms: a site's forms, one form, a form's submissions (paged), one submission; and
 * `submitForm`, a visitor's submission (what only a published site's visitors do): stored, and
 * emitted as `form_submission` with the payload of the document's `webhooks.form_submission`.
 */
import { paged, type Route } from "../http.js"
import { objectId, type Store } from "../store.js"

/** A visitor submits a form: `data` by field name, kept as sent. */
export const submitForm = (store: Store) => (formId: string, data: Record<string, unknown>) => {
  const form = store.form(formId)
  const submission = { id: objectId(), formId: form.id, dateSubmitted: new Date().toISOString(), formResponse: { ...data } }
  store.formSubmissions.set(submission.id, submission)
  store.emit(form.siteId, "form_submission", {
    name: form.displayName,
    siteId: form.siteId,
    data: submission.formResponse,
    schema: form.fields.map((field) => ({ fieldName: field.displayName, fieldType: "FormTextInput", fieldElementId: field.elementId })),
    submittedAt: submission.dateSubmitted,
    id: submission.id,
    formId: form.id,
    formElementId: form.formElementId
  })
  return store.formSubmissionJson(submission)
}

export const routes = (store: Store): ReadonlyArray<Route> => [
  {
    method: "GET",
    path: "/sites/:site_id/forms",
    scope: "forms:read",
    handle: ({ path, query }) => {
      const site = store.site(path["site_id"]!)
      return paged("forms", [...store.forms.values()].filter((f) => f.siteId === site.id), query, store.formJson)
    }
  },
  { method: "GET", path: "/forms/:form_id", scope: "forms:read", handle: ({ path }) => store.formJson(store.form(path["form_id"]!)) },
  {
    method: "GET",
    path: "/forms/:form_id/submissions",
    scope: "forms:read",
    handle: ({ path, query }) => {
      const form = store.form(path["form_id"]!)
      return paged("formSubmissions", [...store.formSubmissions.values()].filter((s) => s.formId === form.id), query, store.formSubmissionJson)
    }
  },
  {
    method: "GET",
    path: "/form_submissions/:form_submission_id",
    scope: "forms:read",
    handle: ({ path }) => store.formSubmissionJson(store.formSubmission(path["form_submission_id"]!))
  }
]
