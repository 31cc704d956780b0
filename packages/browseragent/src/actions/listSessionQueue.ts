import { Action } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Queue from "../api/queue.js"
import * as Props from "../props.js"

export const listSessionQueue = Action.make({
  name: "listSessionQueue",
  title: "List Session Queue (V4)",
  impact: "read",
  description: "Lists a V4 session's messages still waiting to run, oldest first.",
  props: {
    sessionId: Props.runSessionId({ title: "Session", required: true })
  },
  output: Schema.Struct({ messages: Schema.Array(Queue.QueuedMessage) }),
  run: ({ sessionId }, { client }) => Effect.map(Queue.queue(client, sessionId), (messages) => ({ messages }))
})
