/**
 * Forms: a site's forms, a form's submissions (every page), one submission.
 *
 * A submission's `formResponse` is what the visitor sent, keyed by the form's field names: it
 * is kept whole (every field, whatever its type). The document's submission schema leaves out
 * `formId`, which its examples and Webflow's answers carry: read when present.
 */
import { type ProviderClient, ProviderRequest } from "@x/core"
import * as Schema from "effect/Schema"
import { paged } from "./shared.js"

const { path } = ProviderRequest

/** A field of a form, by its id in `Form.fields`. */
export const FormField = Schema.Struct({
  displayName: Schema.optional(Schema.String),
  /** `Plain`, `Email`, `Password`, `Phone` or `Number` in the document; read as any text. */
  type: Schema.optional(Schema.String),
  placeholder: Schema.optional(Schema.NullOr(Schema.String)),
  userVisible: Schema.optional(Schema.Boolean)
})

/** A form placed on a page of the site. */
export const Form = Schema.Struct({
  id: Schema.String,
  displayName: Schema.optional(Schema.String),
  siteId: Schema.optional(Schema.String),
  workspaceId: Schema.optional(Schema.String),
  siteDomainId: Schema.optional(Schema.String),
  pageId: Schema.optional(Schema.String),
  pageName: Schema.optional(Schema.String),
  formElementId: Schema.optional(Schema.NullOr(Schema.String)),
  createdOn: Schema.optional(Schema.String),
  lastUpdated: Schema.optional(Schema.String),
  /** The form's fields by field id. */
  fields: Schema.optional(Schema.Record({ key: Schema.String, value: FormField })),
  responseSettings: Schema.optional(Schema.Struct({
    redirectUrl: Schema.optional(Schema.String),
    redirectMethod: Schema.optional(Schema.NullOr(Schema.String)),
    redirectAction: Schema.optional(Schema.NullOr(Schema.String)),
    sendEmailConfirmation: Schema.optional(Schema.Boolean)
  }))
})
export type Form = typeof Form.Type

/** A visitor's submission of a form. */
export const FormSubmission = Schema.Struct({
  id: Schema.String,
  formId: Schema.optional(Schema.String),
  /** The form's name. */
  displayName: Schema.optional(Schema.String),
  siteId: Schema.optional(Schema.String),
  workspaceId: Schema.optional(Schema.String),
  dateSubmitted: Schema.optional(Schema.String),
  /** Every field the visitor sent, by field name, as sent (`{}` when left out). */
  formResponse: Schema.optionalWith(Schema.Record({ key: Schema.String, value: Schema.Unknown }), { default: () => ({}) })
})
export type FormSubmission = typeof FormSubmission.Type

/** `GET /sites/{id}/forms`, every page up to `maxItems`. */
export const forms = (client: ProviderClient.ProviderClient, siteId: string, maxItems?: number) =>
  paged(client, { path: path`/sites/${siteId}/forms`, key: "forms", maxItems }, Form)

/** `GET /forms/{id}/submissions`, every page up to `maxItems`. */
export const submissions = (client: ProviderClient.ProviderClient, formId: string, maxItems?: number) =>
  paged(client, { path: path`/forms/${formId}/submissions`, key: "formSubmissions", maxItems }, FormSubmission)

/** `GET /form_submissions/{id}`. */
export const getSubmission = (client: ProviderClient.ProviderClient, submissionId: string) =>
  client.json({ method: "GET", path: path`/form_submissions/${submissionId}` }, FormSubmission)

/** `GET /sites/{id}/form_submissions`, every page up to `maxItems`; `elementId` (a form's `formElementId`) keeps one form's. */
export const siteSubmissions = (client: ProviderClient.ProviderClient, siteId: string, elementId?: string, maxItems?: number) =>
  paged(client, { path: path`/sites/${siteId}/form_submissions`, key: "formSubmissions", query: { elementId }, maxItems }, FormSubmission)

/** `PATCH /form_submissions/{id}` `{"formSubmissionData": {…}}`: the form's hidden fields, by name, set to these values. */
export const updateSubmission = (client: ProviderClient.ProviderClient, submissionId: string, formSubmissionData: Readonly<Record<string, string>>) =>
  client.json({ method: "PATCH", path: path`/form_submissions/${submissionId}`, body: ProviderRequest.jsonBody({ formSubmissionData }) }, FormSubmission)

/** `DELETE /form_submissions/{id}` (204). */
export const deleteSubmission = (client: ProviderClient.ProviderClient, submissionId: string) =>
  client.void({ method: "DELETE", path: path`/form_submissions/${submissionId}` })
