import { Action } from "@x/core"
import * as Api from "../api.js"
import * as Props from "../props.js"

export const getSession = Action.make({
  name: "getSession",
  title: "Get Session",
  description: "Reads a session: its status, output, steps and costs.",
  props: {
    sessionId: Props.sessionId({ title: "Session", required: true })
  },
  output: Api.Session,
  run: ({ sessionId }, { client }) => Api.getSession(client, sessionId)
})
