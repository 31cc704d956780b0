import { Action } from "@x/core"
import * as Sessions from "../api/sessions.js"
import * as Props from "../props.js"

export const deleteSession = Action.make({
  name: "deleteSession",
  title: "Delete Session",
  impact: "destroy",
  idempotent: false,
  description: "Deletes a session; Browser Use stops it first if it is still running.",
  props: {
    sessionId: Props.sessionId({ title: "Session", required: true })
  },
  run: ({ sessionId }, { client }) => Sessions.deleteSession(client, sessionId)
})
