import { Action, Property } from "@x/core"
import * as Api from "../api.js"

export const createWorkspace = Action.make({
  name: "createWorkspace",
  title: "Create Workspace",
  description: "Creates a workspace: file storage that sessions share and keep.",
  props: {
    name: Property.string({ title: "Name", maxLength: 100 })
  },
  output: Api.Workspace,
  run: ({ name }, { client }) => Api.createWorkspace(client, name)
})
