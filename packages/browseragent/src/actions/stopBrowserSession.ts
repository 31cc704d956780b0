import { Action } from "@x/core"
import * as Browsers from "../api/browsers.js"
import * as Props from "../props.js"

export const stopBrowserSession = Action.make({
  name: "stopBrowserSession",
  title: "Stop Browser Session",
  impact: "destroy",
  idempotent: false,
  description: "Stops a browser session for good; its unused time is refunded.",
  props: {
    sessionId: Props.browserSessionId({ title: "Browser Session", required: true })
  },
  output: Browsers.BrowserSession,
  run: ({ sessionId }, { client }) => Browsers.stopBrowserSession(client, sessionId)
})
