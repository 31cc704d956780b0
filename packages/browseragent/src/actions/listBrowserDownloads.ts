import { Action, Pagination } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Browsers from "../api/browsers.js"
import * as Props from "../props.js"

export const listBrowserDownloads = Action.make({
  name: "listBrowserDownloads",
  title: "List Browser Downloads",
  impact: "read",
  description: "Lists the files a browser session downloaded, across every page up to the limit.",
  props: {
    sessionId: Props.browserSessionId({ title: "Browser Session", required: true }),
    limit: Pagination.limit({ description: "The most files returned (Browser Use pages by 100).", defaultValue: 100 })
  },
  output: Schema.Struct({ files: Schema.Array(Browsers.BrowserDownload) }),
  run: ({ sessionId, limit }, { client }) =>
    Effect.map(Pagination.collect(Browsers.browserDownloads(client, sessionId, limit ?? 100)), (files) => ({ files }))
})
