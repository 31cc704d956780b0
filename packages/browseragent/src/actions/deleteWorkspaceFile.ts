import { Action } from "@x/core"
import * as Workspaces from "../api/workspaces.js"
import * as Props from "../props.js"

export const deleteWorkspaceFile = Action.make({
  name: "deleteWorkspaceFile",
  title: "Delete Workspace File",
  impact: "destroy",
  idempotent: false,
  description: "Deletes one file of a workspace, at exactly its path.",
  props: {
    workspaceId: Props.workspaceId({ title: "Workspace", required: true }),
    path: Props.workspaceFilePath({ title: "File", description: "Its path in the workspace, e.g. `uploads/data.csv`.", required: true })
  },
  output: Workspaces.DeletedWorkspaceFile,
  run: ({ workspaceId, path }, { client }) => Workspaces.deleteWorkspaceFile(client, workspaceId, path)
})
