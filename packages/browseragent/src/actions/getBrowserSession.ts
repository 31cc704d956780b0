import { Action } from "@x/core"
import * as Browsers from "../api/browsers.js"
import * as Props from "../props.js"

export const getBrowserSession = Action.make({
  name: "getBrowserSession",
  title: "Get Browser Session",
  impact: "read",
  description: "Reads a browser session: its status, CDP and live URLs, timeout and costs.",
  props: {
    sessionId: Props.browserSessionId({ title: "Browser Session", required: true })
  },
  output: Browsers.BrowserSession,
  run: ({ sessionId }, { client }) => Browsers.getBrowserSession(client, sessionId)
})
