import { Action } from "@x/core"
import * as Workspaces from "../api/workspaces.js"
import * as Props from "../props.js"

export const downloadWorkspaceFile = Action.make({
  name: "downloadWorkspaceFile",
  title: "Download Workspace File",
  impact: "read",
  description: "Downloads a workspace's file to a local path (streamed, written 0600).",
  props: {
    workspaceId: Props.workspaceId({ title: "Workspace", required: true }),
    path: Props.workspaceFilePath({ title: "File", description: "Its path in the workspace, e.g. `uploads/data.csv`.", required: true }),
    ...Props.download
  },
  output: Workspaces.DownloadedFile,
  run: ({ workspaceId, path, to, overwrite, maxBytes }, { client }) => Workspaces.downloadWorkspaceFile(client, workspaceId, path, { to, overwrite, maxBytes })
})
