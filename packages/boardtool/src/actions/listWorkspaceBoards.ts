import { Action } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Boards from "../api/boards.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const listWorkspaceBoards = Action.make({
  name: "listWorkspaceBoards",
  title: "List Workspace Boards",
  impact: "read",
  description: "Lists a workspace's boards that you can see: open ones (default), closed ones, or all.",
  props: {
    idOrganization: Props.trelloId({ title: "Workspace", required: true, dynamicOptions: BoardOptions.workspaces }),
    filter: Props.state
  },
  output: Schema.Struct({ boards: Schema.Array(Boards.Board) }),
  run: ({ filter, idOrganization }, { client }) =>
    Effect.map(Boards.workspaceBoards(client, idOrganization, filter ?? "open"), (boards) => ({ boards }))
})
