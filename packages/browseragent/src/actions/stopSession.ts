import { Action, Property } from "@x/core"
import * as Sessions from "../api/sessions.js"
import * as Run from "../api/run.js"
import * as Props from "../props.js"

export const stopSession = Action.make({
  name: "stopSession",
  title: "Stop Session",
  impact: "destroy",
  idempotent: false,
  description: "Stops a session's running task (the session stays, idle) or the whole session (its sandbox is destroyed).",
  props: {
    sessionId: Props.sessionId({ title: "Session", required: true }),
    strategy: Property.string({
      title: "Stop",
      choices: [{ label: "The whole session", value: "session" }, { label: "The running task only", value: "task" }],
      defaultValue: "session"
    })
  },
  output: Sessions.Session,
  run: ({ sessionId, strategy }, { client }) => Run.stopSession(client, sessionId, strategy ?? "session")
})
