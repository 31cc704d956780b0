import { Action, Pagination } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Queue from "../api/queue.js"

export const listRunSessions = Action.make({
  name: "listRunSessions",
  title: "List Run Sessions (V4)",
  impact: "read",
  description: "Lists the V4 sessions (conversations of runs), most recent first, each with its latest run, up to the limit.",
  props: {
    limit: Pagination.limit({ description: "The most sessions returned (pages of 100).", defaultValue: 100 })
  },
  output: Schema.Struct({ sessions: Schema.Array(Queue.RunSession) }),
  run: ({ limit }, { client }) => Effect.map(Pagination.collect(Queue.sessions(client, limit ?? 100)), (sessions) => ({ sessions }))
})
