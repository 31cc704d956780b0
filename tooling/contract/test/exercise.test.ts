/**
 * `Contract.exercise` runs the table's cases in the table's order, not the component's (which
 * lists its actions by name): a suite puts what deletes after what uses it. A member with no case
 * is reported missing; a case naming no member fails.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import { describe, expect, it } from "@effect/vitest"
import { Action, Auth, Component, Connection, Connections, Executor } from "@x/core"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Contract from "../src/index.js"

const BASE = "http://127.0.0.1:9/api"
const request = (name: string, method: "GET" | "DELETE") =>
  Action.make({ name, title: name, description: `${method} /${name}`, ...(method === "GET" ? { impact: "read" } as const : { impact: "destroy", idempotent: true } as const), props: {}, run: (_, { client }) => client.void({ method, path: `/${name}` }) })
const widgets = Component.make({
  name: "widgets",
  version: 1,
  title: "Widgets",
  description: "A fake component for exercise's order.",
  category: "Testing",
  connection: Connection.custom({ title: "None", props: {}, client: { defaultBaseUrl: BASE }, authenticate: () => ({ credentials: Auth.none }) }),
  actions: [request("deleteWidget", "DELETE"), request("getWidget", "GET"), request("listWidgets", "GET")]
})
const answered = Layer.succeed(HttpClient.HttpClient, HttpClient.make((request) => Effect.succeed(HttpClientResponse.fromWeb(request, new Response(null, { status: 204 })))))

const exercise = (actions: Contract.Cases["actions"]) =>
  Effect.gen(function*() {
    const recorder = Contract.recording(answered)
    const { missing } = yield* Contract.exercise(Executor.make([widgets]), widgets, { actions, triggers: {} }, "http://127.0.0.1:1/unused").pipe(
      Effect.provide(Connections.layer({ widgets: {} }).pipe(Layer.provide(recorder.layer)))
    )
    return { missing, sent: recorder.requests.map((sent) => `${sent.method} ${sent.url.slice(BASE.length)}`) }
  })

describe("Contract.exercise", () => {
  it.effect("runs the cases in the table's order; a member without a case is missing", () =>
    Effect.gen(function*() {
      expect(yield* exercise({ listWidgets: {}, deleteWidget: {} })).toEqual({
        missing: ["action getWidget"],
        sent: ["GET /listWidgets", "DELETE /deleteWidget"]
      })
    }))

  it.effect("fails, before sending anything, on a case that names no member", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(exercise({ listWidgets: {}, removeWidget: {} }))
      expect(error.message).toBe("widgets/v1 has no action removeWidget: the table names it")
    }))
})
