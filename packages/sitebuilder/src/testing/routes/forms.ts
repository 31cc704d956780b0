/**
 * Forms: a site's forms, one form, a form's submissions (paged), a site's submissions (paged,
 * of one form by its element id), one submission read, its hidden fields set, or deleted; and
 * `submitForm`, a visitor's submission (what only a published site's visitors do): stored, and
 * emitted as `form_submission` with the payload of the document's `webhooks.form_submission`.
 */
import { invalid, noContent, paged, type Route } from "../http.js"
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
  },
  // A site's submissions of every form, or of the form whose element is `elementId`.
  {
    method: "GET",
    path: "/sites/:site_id/form_submissions",
    scope: "forms:read",
    handle: ({ path, query }) => {
      const site = store.site(path["site_id"]!)
      const elementId = query.get("elementId")
      const forms = new Set([...store.forms.values()].filter((f) => f.siteId === site.id && (elementId === null || f.formElementId === elementId)).map((f) => f.id))
      return paged("formSubmissions", [...store.formSubmissions.values()].filter((s) => forms.has(s.formId)), query, store.formSubmissionJson)
    }
  },
  // Only the form's hidden fields may be set, by name, to a text.
  {
    method: "PATCH",
    path: "/form_submissions/:form_submission_id",
    scope: "forms:write",
    handle: ({ body, path }) => {
      const submission = store.formSubmission(path["form_submission_id"]!)
      const data = body["formSubmissionData"]
      if (typeof data !== "object" || data === null || Array.isArray(data) || Object.keys(data).length === 0) {
        throw invalid([{ param: "formSubmissionData", description: "Field is required" }])
      }
      const hidden = new Set(store.form(submission.formId).fields.filter((f) => f.hidden === true).map((f) => f.displayName))
      for (const [name, value] of Object.entries(data)) {
        if (!hidden.has(name)) throw invalid([{ param: `formSubmissionData.${name}`, description: "is not a hidden field of the form" }])
        if (typeof value !== "string") throw invalid([{ param: `formSubmissionData.${name}`, description: "Expected a string" }])
      }
      submission.formResponse = { ...submission.formResponse, ...data }
      return store.formSubmissionJson(submission)
    }
  },
  {
    method: "DELETE",
    path: "/form_submissions/:form_submission_id",
    scope: "forms:write",
    handle: ({ path }) => {
      store.formSubmissions.delete(store.formSubmission(path["form_submission_id"]!).id)
      return noContent()
    }
  }
]
