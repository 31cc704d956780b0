/**
 * Forms, on the wire (nock): each action's request (method, path, query, body)
 * pinned, Webflow's answers (the document's examples) decoded, paging to the end or the limit,
 * bad input refused before any request, Webflow's errors typed; and their dynamic options.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import nock from "nock"
import { ACCESS_TOKEN, API, executor, run, SITE, webflowError, withFetch } from "./support.js"

const webflow = () => nock(API, { reqheaders: { authorization: `Bearer ${ACCESS_TOKEN}`, accept: "application/json" } })
const options = (action: string, property: string, params: Record<string, unknown>) =>
  withFetch(executor.options(`sitebuilder/v1/${action}`, property, params))

const FORM = "589a331aa51e760df7ccb89e"
const SUBMISSION = "6321ca84df3949bfc6752327"
const WORKSPACE = "580e63fc8c9a982ac9b8b744"

/** A form as `GET /sites/{id}/forms` lists it. */
const webflowForm = {
  displayName: "Email Form",
  createdOn: "2016-10-24T19:41:29.156Z",
  lastUpdated: "2016-10-24T19:43:17.271Z",
  fields: {
    "660d5bcc9c0772150459dfb1": { displayName: "Name", type: "Plain", placeholder: null, userVisible: true },
    "589a331aa51e760df7ccb89d": { displayName: "Email", type: "Email", placeholder: "Enter your email", userVisible: true }
  },
  responseSettings: { redirectUrl: "https://example.com", redirectMethod: "GET", redirectAction: null, sendEmailConfirmation: true },
  id: FORM,
  siteId: SITE,
  siteDomainId: "6419db964a9c436a4baf6248",
  pageId: "6419db964a9c43f6a3af6348",
  pageName: "Home",
  formElementId: "4e038d2c-6a1e-4953-7be9-a59a2b453177",
  workspaceId: WORKSPACE
}
const submission = (n: number, formResponse: Record<string, unknown> = { "First Name": "Arthur", "Last Name": "Dent" }) => ({
  id: `${SUBMISSION.slice(0, 20)}${String(n).padStart(4, "0")}`,
  formId: FORM,
  displayName: "Sample Form",
  siteId: SITE,
  workspaceId: WORKSPACE,
  formResponse,
  dateSubmitted: "2022-09-14T12:35:16.117Z"
})
beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})
afterAll(() => nock.enableNetConnect())

describe("forms: the wire", () => {
  it.effect("listForms: GET /v2/sites/{siteId}/forms?offset&limit page after page; fields by id decoded", () =>
    Effect.gen(function*() {
      const scope = webflow()
        .get(`/v2/sites/${SITE}/forms`).query({ offset: 0, limit: 100 })
        .reply(200, { forms: Array.from({ length: 100 }, () => webflowForm), pagination: { limit: 100, offset: 0, total: 101 } })
        .get(`/v2/sites/${SITE}/forms`).query({ offset: 100, limit: 100 })
        .reply(200, { forms: [{ ...webflowForm, displayName: "Last" }], pagination: { limit: 100, offset: 100, total: 101 } })
      const { forms } = (yield* run("listForms", { siteId: SITE, limit: 500 })) as { forms: ReadonlyArray<any> }
      expect(forms).toHaveLength(101)
      expect(forms[0]).toEqual(webflowForm)
      expect(forms[100].displayName).toBe("Last")
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("listFormSubmissions: GET /v2/forms/{formId}/submissions; a limit of 120 asks the second page for 20; formResponse kept whole", () =>
    Effect.gen(function*() {
      const page = (from: number, count: number) => Array.from({ length: count }, (_, i) => submission(from + i))
      const scope = webflow()
        .get(`/v2/forms/${FORM}/submissions`).query({ offset: 0, limit: 100 })
        .reply(200, { formSubmissions: page(0, 100), pagination: { limit: 100, offset: 0, total: 300 } })
        .get(`/v2/forms/${FORM}/submissions`).query({ offset: 100, limit: 20 })
        .reply(200, { formSubmissions: [submission(100, { Email: "z@example.com", Phone: 15550000000, Consent: true, Tags: ["a", "b"] }), ...page(101, 19)], pagination: { limit: 20, offset: 100, total: 300 } })
      const { formSubmissions } = (yield* run("listFormSubmissions", { siteId: SITE, formId: FORM, limit: 120 })) as { formSubmissions: ReadonlyArray<any> }
      expect(formSubmissions).toHaveLength(120)
      expect(formSubmissions[0]).toEqual(submission(0))
      expect(formSubmissions[100].formResponse).toEqual({ Email: "z@example.com", Phone: 15550000000, Consent: true, Tags: ["a", "b"] })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("getFormSubmission: GET /v2/form_submissions/{id} (siteId and formId not sent); a 404 is a NotFound with Webflow's message", () =>
    Effect.gen(function*() {
      const scope = webflow()
        .get(`/v2/form_submissions/${SUBMISSION}`).reply(200, { ...submission(0), id: SUBMISSION })
        .get(`/v2/form_submissions/${FORM}`).reply(404, webflowError("resource_not_found", "Requested resource not found: Form submission not found"))
      expect(yield* run("getFormSubmission", { siteId: SITE, formId: FORM, submissionId: SUBMISSION })).toEqual({ ...submission(0), id: SUBMISSION })
      const missing = yield* Effect.flip(run("getFormSubmission", { submissionId: FORM }))
      expect(missing).toMatchObject({ _tag: "NotFound", status: 404, message: "Requested resource not found: Form submission not found" })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("bad ids and limits are refused before any request", () =>
    Effect.gen(function*() {
      const bad = yield* Effect.flip(run("listFormSubmissions", { formId: "contact", limit: 0 }))
      expect(bad._tag === "InvalidInput" && bad.issues.map((i) => i.path)).toEqual(["formId", "limit"])
      const none = yield* Effect.flip(run("getFormSubmission", {}))
      expect(none._tag === "InvalidInput" && none.issues.map((i) => i.path)).toEqual(["submissionId"])
      const site = yield* Effect.flip(run("listForms", {}))
      expect(site._tag === "InvalidInput" && site.issues.map((i) => i.path)).toEqual(["siteId"])
    }))
})

describe("forms: options", () => {
  it.effect("forms and submissions", () =>
    Effect.gen(function*() {
      const scope = webflow()
        .get(`/v2/sites/${SITE}/forms`).query({ offset: 0, limit: 100 }).reply(200, { forms: [webflowForm], pagination: { limit: 100, offset: 0, total: 1 } })
        .get(`/v2/forms/${FORM}/submissions`).query({ offset: 0, limit: 100 }).reply(200, { formSubmissions: [submission(1)], pagination: { limit: 100, offset: 0, total: 1 } })
      expect(yield* options("listFormSubmissions", "formId", { siteId: SITE })).toEqual([{ label: "Email Form (Home)", value: FORM }])
      expect(yield* options("getFormSubmission", "submissionId", { formId: FORM })).toEqual([
        { label: "2022-09-14T12:35:16.117Z: Arthur", value: submission(1).id }
      ])
      expect(scope.isDone()).toBe(true)
    }))
})
