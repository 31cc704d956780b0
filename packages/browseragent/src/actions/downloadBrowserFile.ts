import { Action, Property } from "@x/core"
import * as Browsers from "../api/browsers.js"
import * as Props from "../props.js"

export const downloadBrowserFile = Action.make({
  name: "downloadBrowserFile",
  title: "Download Browser File",
  description: "Downloads a file a browser session downloaded to a local path (streamed, written 0600).",
  props: {
    sessionId: Props.browserSessionId({ title: "Browser Session", required: true }),
    path: Props.browserDownloadPath({ title: "File", description: "Its name in the session's downloads, e.g. `invoice.pdf`.", required: true }),
    to: Property.string({
      title: "Save to",
      description: "The file to write, inside the files directory (relative to it, or absolute); its directory must exist.",
      required: true,
      minLength: 1
    }),
    overwrite: Property.boolean({ title: "Overwrite", description: "Replace a file already at the path (default: the download is refused)." }),
    maxBytes: Property.integer({ title: "Largest size (bytes)", minimum: 1 })
  },
  output: Browsers.DownloadedBrowserFile,
  run: ({ sessionId, path, to, overwrite, maxBytes }, { client }) => Browsers.downloadBrowserFile(client, sessionId, path, { to, overwrite, maxBytes })
})
