/**
 * The deprecation watch: a request to an operation the document (or an amendment) marks
 * deprecated is a finding naming the operation and what sent it, unless that action or trigger
 * is marked deprecated too. A fake component, run by `Contract.exercise` over a stub HttpClient.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import { describe, expect, it } from "@effect/vitest"
import { Action, Auth, Component, Connection, Connections, Executor, ProviderRequest, Trigger } from "@x/core"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { fileURLToPath } from "node:url"
import * as Contract from "../src/index.js"

const specPath = fileURLToPath(new URL("./fixtures/deprecations.json", import.meta.url))
const BASE = "http://127.0.0.1:9/api"
const since = { since: "2026-01-29", replacement: "getWidget", reason: "the provider switched it off" }

const widgets = (deprecated: { readonly legacy?: Action.Deprecation; readonly trigger?: Action.Deprecation } = {}) =>
  Component.make({
    name: "widgets",
    version: 1,
    title: "Widgets",
    description: "A fake component for the deprecation watch.",
    category: "Testing",
    connection: Connection.custom({ title: "None", props: {}, client: { defaultBaseUrl: BASE }, authenticate: () => ({ credentials: Auth.none }) }),
    actions: [
      Action.make({ name: "listWidgets", title: "List widgets", description: "GET /widgets", impact: "read", props: {}, run: (_, { client }) => client.void({ method: "GET", path: "/widgets" }) }),
      Action.make({
        name: "legacyWidget",
        title: "Legacy widget",
        description: "GET /widgets/{id}/legacy",
        impact: "read",
        props: {},
        run: (_, { client }) => client.void({ method: "GET", path: ProviderRequest.path`/widgets/${"w1"}/legacy` }),
        ...(deprecated.legacy === undefined ? {} : { deprecated: deprecated.legacy })
      }),
      Action.make({
        name: "deleteWidget",
        title: "Delete widget",
        description: "DELETE /widgets/{id}",
        impact: "destroy",
        idempotent: true,
        props: {},
        run: (_, { client }) => client.void({ method: "DELETE", path: ProviderRequest.path`/widgets/${"w1"}` })
      })
    ],
    triggers: [
      Trigger.polling({
        name: "legacyChanged",
        title: "Legacy widget changed",
        description: "Polls GET /widgets/{id}/legacy",
        props: {},
        output: Schema.Struct({}),
        interval: "1 minute",
        cursor: Schema.Struct({}),
        poll: ({ client }) => client.void({ method: "GET", path: ProviderRequest.path`/widgets/${"w1"}/legacy` }).pipe(Effect.as({ events: [], cursor: {} })),
        ...(deprecated.trigger === undefined ? {} : { deprecated: deprecated.trigger })
      })
    ]
  })

const answered = Layer.succeed(HttpClient.HttpClient, HttpClient.make((request) => Effect.succeed(HttpClientResponse.fromWeb(request, new Response(null, { status: 204 })))))

/** Every request the component sends, through `exercise`, checked against the document. */
const findings = (component: Component.Component, amendments: ReadonlyArray<Contract.Amendment> = []) =>
  Effect.gen(function*() {
    const contract = Contract.load(specPath, amendments)
    const recorder = Contract.recording(answered)
    const { missing } = yield* Contract.exercise(Executor.make([component]), component, {
      actions: { listWidgets: {}, legacyWidget: {}, deleteWidget: {} },
      triggers: { legacyChanged: {} }
    }, "http://127.0.0.1:1/unused").pipe(Effect.provide(Connections.layer({ widgets: {} }).pipe(Layer.provide(recorder.layer))))
    expect(missing).toEqual([])
    // Five requests, each with its sender: the three actions' and the trigger's two polls.
    expect(recorder.requests.map((request) => request.sentBy?.label)).toEqual([
      "action widgets/v1/listWidgets",
      "action widgets/v1/legacyWidget",
      "action widgets/v1/deleteWidget",
      "trigger widgets/v1/legacyChanged (poll)",
      "trigger widgets/v1/legacyChanged (poll)"
    ])
    return recorder.requests.flatMap((request) => contract.check(request, BASE))
  })

describe("the deprecation watch", () => {
  it.effect("an action or trigger that sends an operation the document deprecates, not marked deprecated itself, is a finding naming both and what to do", () =>
    Effect.gen(function*() {
      const found = yield* findings(widgets())
      const expected = (sender: string) =>
        `GET /widgets/{id}/legacy: deprecated (the document marks it deprecated), and ${sender}, which sends it, is not marked deprecated: ` +
        `mark it deprecated (deprecated: { since: "YYYY-MM-DD", replacement, reason }) or move it to the operation that replaces this one`
      expect(found).toEqual([expected("action widgets/v1/legacyWidget"), expected("trigger widgets/v1/legacyChanged (poll)"), expected("trigger widgets/v1/legacyChanged (poll)")])
    }))

  it.effect("the same action and trigger marked deprecated (with their date and replacement) are no finding", () =>
    Effect.gen(function*() {
      expect(yield* findings(widgets({ legacy: since, trigger: since }))).toEqual([])
    }))

  it.effect("an amendment marks deprecated an operation the document predates, with its reason", () =>
    Effect.gen(function*() {
      const switchedOff: Contract.Amendment = { operation: "DELETE /widgets/{id}", deprecated: true, reason: "switched off on 2026-01-29 (the provider's changelog)" }
      expect([...Contract.load(specPath, [switchedOff]).deprecatedOperations].sort()).toEqual(["DELETE /widgets/{id}", "GET /widgets/{id}/legacy"])
      expect(yield* findings(widgets({ legacy: since, trigger: since }), [switchedOff])).toEqual([
        "DELETE /widgets/{id}: deprecated (switched off on 2026-01-29 (the provider's changelog)), and action widgets/v1/deleteWidget, which sends it, " +
        `is not marked deprecated: mark it deprecated (deprecated: { since: "YYYY-MM-DD", replacement, reason }) or move it to the operation that replaces this one`
      ])
    }))

  it("a request to a deprecated operation with no known sender is a finding too; a sender's deprecation is enough", () => {
    const contract = Contract.load(specPath)
    const request = { method: "GET", url: `${BASE}/widgets/w1/legacy`, body: { kind: "none" } } as const
    expect(contract.check(request, BASE)).toEqual([expect.stringMatching(/^GET \/widgets\/\{id\}\/legacy: deprecated .*sent by nothing known/)])
    expect(contract.check({ ...request, sentBy: { label: "action widgets/v1/legacyWidget", deprecated: since } }, BASE)).toEqual([])
    expect(contract.check({ method: "GET", url: `${BASE}/widgets`, body: { kind: "none" } }, BASE)).toEqual([])
  })
})
