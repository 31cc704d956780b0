import { Action, Pagination, Property } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Forms from "../api/forms.js"
import * as FormOptions from "../options/forms.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const listSiteFormSubmissions = Action.make({
  name: "listSiteFormSubmissions",
  title: "List Site Form Submissions",
  impact: "read",
  description: "Lists the submissions of every form of a site, or of one form by its element, across every page up to the limit.",
  props: {
    siteId: Props.siteId(true),
    elementId: Property.string({
      title: "Form",
      description: "Only this form's submissions: its element id (formElementId in listForms); every form's when not given.",
      minLength: 1,
      maxLength: 100,
      dynamicOptions: FormOptions.formElements
    }),
    limit: Pagination.limit({ description: "The most submissions returned (Webflow pages by 100).", defaultValue: 100 })
  },
  output: Schema.Struct({ formSubmissions: Schema.Array(Forms.FormSubmission) }),
  scopes: [Scopes.formsRead, Scopes.sitesRead],
  run: ({ elementId, limit, siteId }, { client }) =>
    Effect.map(Pagination.collect(Forms.siteSubmissions(client, siteId, elementId, limit ?? 100)), (formSubmissions) => ({ formSubmissions }))
})
