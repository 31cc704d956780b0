import { Action, Property } from "@x/core"
import * as Queue from "../api/queue.js"
import * as Props from "../props.js"

export const removeQueuedMessage = Action.make({
  name: "removeQueuedMessage",
  title: "Remove Queued Message (V4)",
  impact: "destroy",
  idempotent: false,
  description: "Removes a message still waiting on a V4 session's queue (a Conflict once the session has taken it).",
  props: {
    sessionId: Props.runSessionId({ title: "Session", required: true }),
    messageId: Property.integer({ title: "Message", description: "The queued message's id.", required: true, minimum: 1 })
  },
  output: Queue.QueuedMessage,
  run: ({ sessionId, messageId }, { client }) => Queue.removeMessage(client, sessionId, messageId)
})
