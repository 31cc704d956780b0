import { Action, Pagination } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Sessions from "../api/sessions.js"

export const listSessions = Action.make({
  name: "listSessions",
  title: "List Sessions",
  impact: "read",
  description: "Lists the sessions, newest first, across every page up to the limit.",
  props: {
    limit: Pagination.limit({ description: "The most sessions returned (Browser Use pages by 100).", defaultValue: 100 })
  },
  output: Schema.Struct({ sessions: Schema.Array(Sessions.Session) }),
  run: ({ limit }, { client }) =>
    Effect.map(Pagination.collect(Sessions.sessions(client, limit ?? 100)), (sessions) => ({ sessions }))
})
