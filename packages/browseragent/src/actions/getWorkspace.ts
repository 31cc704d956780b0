import { Action } from "@x/core"
import * as Workspaces from "../api/workspaces.js"
import * as Props from "../props.js"

export const getWorkspace = Action.make({
  name: "getWorkspace",
  title: "Get Workspace",
  impact: "read",
  description: "Gets a workspace: its name and when it was created and last updated.",
  props: {
    workspaceId: Props.workspaceId({ title: "Workspace", required: true })
  },
  output: Workspaces.Workspace,
  run: ({ workspaceId }, { client }) => Workspaces.getWorkspace(client, workspaceId)
})
