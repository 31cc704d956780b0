import { Action, Property } from "@x/core"
import * as Workspaces from "../api/workspaces.js"
import * as Props from "../props.js"

export const updateWorkspace = Action.make({
  name: "updateWorkspace",
  title: "Update Workspace",
  impact: "write",
  idempotent: true,
  description: "Renames a workspace; without a name, its name is cleared.",
  props: {
    workspaceId: Props.workspaceId({ title: "Workspace", required: true }),
    name: Property.string({ title: "Name", description: "The new name (none clears it).", maxLength: 100 })
  },
  output: Workspaces.Workspace,
  run: ({ workspaceId, name }, { client }) => Workspaces.updateWorkspace(client, workspaceId, name ?? null)
})
