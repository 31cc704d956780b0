/**
 * Forms end to end: each action run through the executor against the simulator (seeded
 * forms and submissions), a visitor's submission (`submitForm`) listed and read afterwards
 * with its `form_submission` event, and Webflow's refusals typed.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Simulator from "../src/testing/simulator.js"
import { simulated } from "./support.js"

const { seed } = Simulator
const simulation = simulated()
const { counted, options, run } = simulation

/** Requests the simulator answered while `effect` ran. */

describe("forms against the simulator", () => {
  it.live("listForms: the store site's two forms with their fields; the Portfolio site has none", () =>
    Effect.gen(function*() {
      const { forms } = (yield* run("listForms", { siteId: seed.sites.store })) as { forms: ReadonlyArray<any> }
      expect(forms.map((f) => f.displayName)).toEqual(["Contact Us", "Newsletter"])
      expect(forms[0]).toMatchObject({ id: seed.forms.contact, siteId: seed.sites.store, pageName: "Contact" })
      expect(Object.values(forms[0].fields).map((f: any) => `${f.displayName}:${f.type}`)).toEqual(["Name:Plain", "Email:Email", "Phone:Phone", "Message:Plain"])
      expect(yield* run("listForms", { siteId: seed.sites.portfolio })).toEqual({ forms: [] })
    }))

  it.live("listFormSubmissions: 120 newsletter submissions in two requests; a limit of 30 stops after one", () =>
    Effect.gen(function*() {
      const all = yield* counted(run("listFormSubmissions", { formId: seed.forms.newsletter, limit: 500 }))
      const submissions = (all.value as { formSubmissions: ReadonlyArray<any> }).formSubmissions
      expect(submissions).toHaveLength(120)
      expect(all.requests).toBe(2)
      expect(submissions[119]).toMatchObject({ id: seed.newsletterSubmission(120), formId: seed.forms.newsletter, displayName: "Newsletter", formResponse: { Email: "reader120@example.com" } })
      const few = yield* counted(run("listFormSubmissions", { formId: seed.forms.newsletter, limit: 30 }))
      expect((few.value as { formSubmissions: ReadonlyArray<unknown> }).formSubmissions).toHaveLength(30)
      expect(few.requests).toBe(1)
    }))

  it.live("a visitor's submission (submitForm): stored with every field sent, listed, read, and emitted as form_submission", () =>
    Effect.gen(function*() {
      const data = { Name: "Zaphod Beeblebrox", Email: "zaphod@heartofgold.ai", Phone: 15550000000, Newsletter: true }
      const submitted = simulation.sim.submitForm(seed.forms.contact, data)
      const event = simulation.sim.events.at(-1)!
      expect(event).toMatchObject({ siteId: seed.sites.store, triggerType: "form_submission" })
      expect(event.payload).toEqual({
        name: "Contact Us",
        siteId: seed.sites.store,
        data,
        schema: ["Name", "Email", "Phone", "Message"].map((fieldName) => ({ fieldName, fieldType: "FormTextInput", fieldElementId: expect.stringMatching(/^[0-9a-f-]{36}$/) })),
        submittedAt: submitted.dateSubmitted,
        id: submitted.id,
        formId: seed.forms.contact,
        formElementId: "4e038d2c-6a1e-4953-7be9-a59a2b453177"
      })
      const { formSubmissions } = (yield* run("listFormSubmissions", { formId: seed.forms.contact })) as { formSubmissions: ReadonlyArray<any> }
      expect(formSubmissions.map((s) => s.formResponse.Name)).toEqual(["Arthur Dent", "Ford Prefect", "Trillian", "Zaphod Beeblebrox"])
      expect(yield* run("getFormSubmission", { siteId: seed.sites.store, formId: seed.forms.contact, submissionId: submitted.id })).toEqual({
        id: submitted.id,
        formId: seed.forms.contact,
        displayName: "Contact Us",
        siteId: seed.sites.store,
        workspaceId: expect.any(String),
        dateSubmitted: submitted.dateSubmitted,
        formResponse: data
      })
      expect(() => simulation.sim.submitForm("0123456789abcdef01234567", {})).toThrow()
    }))

  it.live("getFormSubmission: a seeded one; an unknown id is a NotFound", () =>
    Effect.gen(function*() {
      expect(yield* run("getFormSubmission", { submissionId: seed.contactSubmission(2) })).toMatchObject({
        formResponse: { Name: "Ford Prefect", Email: "ford@example.com", Phone: "+1 555 0100", Message: "Don't panic." }
      })
      expect(yield* Effect.flip(run("getFormSubmission", { submissionId: "0123456789abcdef01234567" }))).toMatchObject({
        _tag: "NotFound", status: 404, message: "Requested resource not found: Form submission not found"
      })
    }))

  it.live("options: forms of a site, submissions of a form", () =>
    Effect.gen(function*() {
      expect(yield* options("listFormSubmissions", "formId", { siteId: seed.sites.store })).toEqual([
        { label: "Contact Us (Contact)", value: seed.forms.contact },
        { label: "Newsletter (Home)", value: seed.forms.newsletter }
      ])
      const submissions = yield* options("getFormSubmission", "submissionId", { formId: seed.forms.newsletter })
      expect(submissions.length).toBeGreaterThanOrEqual(120)
      expect(submissions[0]!.label).toContain("reader1@example.com")
    }))
})
