import { Action, Property } from "@x/core"
import * as Api from "../api.js"
import * as Options from "../options.js"

export const getSession = Action.make({
  name: "getSession",
  title: "Get Session",
  description: "Reads a session: its status, output, steps and costs.",
  props: {
    sessionId: Property.string({ title: "Session", required: true, ...Options.sessionId, dynamicOptions: Options.sessions })
  },
  output: Api.Session,
  run: ({ sessionId }, { client }) => Api.getSession(client, sessionId)
})
