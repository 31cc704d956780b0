import { Action, Property } from "@x/core"
import * as Queue from "../api/queue.js"
import * as Props from "../props.js"

const fileUuid = Property.patterned(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, "must be a file id (a UUID)")

export const sendSessionMessage = Action.make({
  name: "sendSessionMessage",
  title: "Send Session Message (V4)",
  impact: "destroy",
  idempotent: false,
  description: "Sends a message to a V4 session: it runs now if the session is idle, else it waits on the queue as the next turn.",
  props: {
    sessionId: Props.runSessionId({ title: "Session", required: true }),
    text: Property.string({ title: "Message", required: true, minLength: 1 }),
    interrupt: Property.boolean({ title: "Interrupt", description: "Cancel the session's active run so that this message runs now (best effort)." }),
    attachedFileIds: Property.array({ title: "Attached Files", description: "Uploaded files' ids, 20 at most.", maxItems: 20, items: fileUuid({ title: "File" }) })
  },
  output: Queue.QueuedMessage,
  run: ({ sessionId, ...message }, { client }) => Queue.sendMessage(client, sessionId, message)
})
