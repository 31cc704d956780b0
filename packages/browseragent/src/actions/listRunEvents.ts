import { Action, Pagination } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Runs from "../api/runs.js"
import * as Props from "../props.js"

export const listRunEvents = Action.make({
  name: "listRunEvents",
  title: "List Run Events (V4)",
  impact: "read",
  description: "Lists a run's events so far, oldest first (its steps, messages and end), across every page up to the limit.",
  props: {
    runId: Props.runId({ title: "Run", required: true }),
    limit: Pagination.limit({ description: "The most events returned (pages of 200).", defaultValue: 1000 })
  },
  output: Schema.Struct({ events: Schema.Array(Runs.RunEvent) }),
  run: ({ runId, limit }, { client }) =>
    Effect.map(Pagination.collect(Runs.runEvents(client, runId, limit ?? 1000)), (events) => ({ events }))
})
