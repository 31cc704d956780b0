import { Action, Property } from "@x/core"
import * as Workspaces from "../api/workspaces.js"

export const createWorkspace = Action.make({
  name: "createWorkspace",
  title: "Create Workspace",
  impact: "write",
  idempotent: false,
  description: "Creates a workspace: file storage that sessions share and keep.",
  props: {
    name: Property.string({ title: "Name", maxLength: 100 })
  },
  output: Workspaces.Workspace,
  run: ({ name }, { client }) => Workspaces.createWorkspace(client, name)
})
