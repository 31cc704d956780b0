import { Action, Choice, Pagination, Property } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Browsers from "../api/browsers.js"

export const listBrowserSessions = Action.make({
  name: "listBrowserSessions",
  title: "List Browser Sessions",
  impact: "read",
  description: "Lists the browser sessions, newest first, across every page up to the limit.",
  props: {
    status: Property.string({ title: "Status", description: "Only the sessions with this status.", choices: Choice.of(Browsers.browserStatuses) }),
    limit: Pagination.limit({ description: "The most browser sessions returned (Browser Use pages by 100).", defaultValue: 100 })
  },
  output: Schema.Struct({ sessions: Schema.Array(Browsers.BrowserSession) }),
  run: ({ status, limit }, { client }) =>
    Effect.map(Pagination.collect(Browsers.browserSessions(client, { status, maxItems: limit ?? 100 })), (sessions) => ({ sessions }))
})
