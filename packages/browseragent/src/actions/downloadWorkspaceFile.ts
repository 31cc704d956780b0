import { Action, Property } from "@x/core"
import * as Api from "../api.js"
import * as Props from "../props.js"

export const downloadWorkspaceFile = Action.make({
  name: "downloadWorkspaceFile",
  title: "Download Workspace File",
  description: "Downloads a workspace's file to a local path (streamed, written 0600).",
  props: {
    workspaceId: Props.workspaceId({ title: "Workspace", required: true }),
    path: Props.workspaceFilePath({ title: "File", description: "Its path in the workspace, e.g. `uploads/data.csv`.", required: true }),
    to: Property.string({
      title: "Save to",
      description: "The file to write, inside the files directory (relative to it, or absolute); its directory must exist.",
      required: true,
      minLength: 1
    }),
    overwrite: Property.boolean({ title: "Overwrite", description: "Replace a file already at the path (default: the download is refused)." }),
    maxBytes: Property.integer({ title: "Largest size (bytes)", minimum: 1 })
  },
  output: Api.DownloadedFile,
  run: ({ workspaceId, path, to, overwrite, maxBytes }, { client }) => Api.downloadWorkspaceFile(client, workspaceId, path, { to, overwrite, maxBytes })
})
