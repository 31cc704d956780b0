import { Action } from "@x/core"
import * as Sessions from "../api/sessions.js"
import * as Props from "../props.js"

export const getSession = Action.make({
  name: "getSession",
  title: "Get Session",
  impact: "read",
  description: "Reads a session: its status, output, steps and costs.",
  props: {
    sessionId: Props.sessionId({ title: "Session", required: true })
  },
  output: Sessions.Session,
  run: ({ sessionId }, { client }) => Sessions.getSession(client, sessionId)
})
