import { Action } from "@x/core"
import * as Browsers from "../api/browsers.js"
import * as Props from "../props.js"

export const downloadBrowserFile = Action.make({
  name: "downloadBrowserFile",
  title: "Download Browser File",
  impact: "read",
  description: "Downloads a file a browser session downloaded to a local path (streamed, written 0600).",
  props: {
    sessionId: Props.browserSessionId({ title: "Browser Session", required: true }),
    path: Props.browserDownloadPath({ title: "File", description: "Its name in the session's downloads, e.g. `invoice.pdf`.", required: true }),
    ...Props.download
  },
  output: Browsers.DownloadedBrowserFile,
  run: ({ sessionId, path, to, overwrite, maxBytes }, { client }) => Browsers.downloadBrowserFile(client, sessionId, path, { to, overwrite, maxBytes })
})
