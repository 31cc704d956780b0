/** Dynamic options of the forms actions: a site's forms and their names, a form's submissions (every page). */
import { Choice, DynamicOptions, Pagination } from "@x/core"
import * as Effect from "effect/Effect"
import * as Forms from "../api/forms.js"


export const forms = DynamicOptions.make(["siteId"], ({ client, params }) =>
  Effect.map(Pagination.collect(Forms.forms(client, DynamicOptions.dependency(params, "siteId"))), (items) =>
    Choice.fromRecords(items, (f) => f.pageName === undefined ? f.displayName ?? f.id : `${f.displayName ?? f.id} (${f.pageName})`, (f) => f.id)))

/** A site's form names (a webhook filters submissions by the form's name); one entry per name. */
export const formNames = DynamicOptions.make(["siteId"], ({ client, params }) =>
  Effect.map(Pagination.collect(Forms.forms(client, DynamicOptions.dependency(params, "siteId"))), (items) =>
    Choice.fromRecords([...new Set(items.flatMap((f) => f.displayName === undefined ? [] : [f.displayName]))], (name) => name, (name) => name)))

/** A form's submissions, as "when: the first value sent". */
export const submissions = DynamicOptions.make(["formId"], ({ client, params }) =>
  Effect.map(Pagination.collect(Forms.submissions(client, DynamicOptions.dependency(params, "formId"))), (items) =>
    Choice.fromRecords(items, (s) => {
      const first = Object.values(s.formResponse)[0]
      const when = s.dateSubmitted ?? s.id
      return first === undefined ? when : `${when}: ${String(first)}`
    }, (s) => s.id)))

/** A site's forms by their element id (what `GET /sites/{id}/form_submissions?elementId=` takes). */
export const formElements = DynamicOptions.make(["siteId"], ({ client, params }) =>
  Effect.map(Pagination.collect(Forms.forms(client, DynamicOptions.dependency(params, "siteId"))), (items) =>
    Choice.fromRecords(
      items.filter((f) => f.formElementId != null),
      (f) => f.pageName === undefined ? f.displayName ?? f.id : `${f.displayName ?? f.id} (${f.pageName})`,
      (f) => f.formElementId!
    )))
