import { Action } from "@x/core"
import * as Workspaces from "../api/workspaces.js"
import * as Props from "../props.js"

export const getWorkspaceSize = Action.make({
  name: "getWorkspaceSize",
  title: "Get Workspace Size",
  impact: "read",
  description: "Gets a workspace's storage usage: the bytes its files take and how many there are.",
  props: {
    workspaceId: Props.workspaceId({ title: "Workspace", required: true })
  },
  output: Workspaces.WorkspaceSize,
  run: ({ workspaceId }, { client }) => Workspaces.getWorkspaceSize(client, workspaceId)
})
