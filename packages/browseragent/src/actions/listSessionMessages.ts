import { Action, Pagination } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Sessions from "../api/sessions.js"
import * as Props from "../props.js"

export const listSessionMessages = Action.make({
  name: "listSessionMessages",
  title: "List Session Messages",
  impact: "read",
  description: "Lists a session's messages in order (its tasks, the agent's steps and answers), across every page up to the limit.",
  props: {
    sessionId: Props.sessionId({ title: "Session", required: true }),
    limit: Pagination.limit({ description: "The most messages returned (Browser Use pages by 100).", defaultValue: 500 })
  },
  output: Schema.Struct({ messages: Schema.Array(Sessions.Message) }),
  run: ({ sessionId, limit }, { client }) =>
    Effect.map(Pagination.collect(Sessions.messages(client, sessionId, limit ?? 500)), (messages) => ({ messages }))
})
