import { Action } from "@x/core"
import * as Workspaces from "../api/workspaces.js"
import * as Props from "../props.js"

export const deleteWorkspace = Action.make({
  name: "deleteWorkspace",
  title: "Delete Workspace",
  impact: "destroy",
  idempotent: false,
  description: "Deletes a workspace and every file in it.",
  props: {
    workspaceId: Props.workspaceId({ title: "Workspace", required: true })
  },
  output: Workspaces.DeletedWorkspace,
  run: ({ workspaceId }, { client }) => Workspaces.deleteWorkspace(client, workspaceId)
})
