import { Action, Pagination } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Runs from "../api/runs.js"
import * as Props from "../props.js"

export const listRuns = Action.make({
  name: "listRuns",
  title: "List Runs (V4)",
  impact: "read",
  description: "Lists the runs, newest first (of one session if given), across every page up to the limit.",
  props: {
    sessionId: Props.runSessionId({ title: "Session", description: "Only this V4 session's runs." }),
    limit: Pagination.limit({ description: "The most runs returned (pages of 100).", defaultValue: 100 })
  },
  output: Schema.Struct({ runs: Schema.Array(Runs.Run) }),
  run: ({ sessionId, limit }, { client }) =>
    Effect.map(Pagination.collect(Runs.runs(client, { sessionId, maxItems: limit ?? 100 })), (runs) => ({ runs }))
})
