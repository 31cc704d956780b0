/**
 * @x/browseragent: the browser-agent component, `browseragent/v1` (Browser Use Cloud API v3).
 */
import { Component } from "@x/core"
import { createSession } from "./actions/createSession.js"
import { getSession } from "./actions/getSession.js"
import { connection } from "./connection.js"

export const browseragent = Component.make({
  name: "browseragent",
  version: 1,
  title: "Browser Agent",
  description: "Browser automation by AI agents that navigate sites and extract data.",
  category: "Artificial Intelligence",
  connection,
  actions: [createSession, getSession],
  customAction: true
})

export { models, Session } from "./api.js"
export { connection, createSession, getSession }
