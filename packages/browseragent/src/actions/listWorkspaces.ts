import { Action, Pagination } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Workspaces from "../api/workspaces.js"

export const listWorkspaces = Action.make({
  name: "listWorkspaces",
  title: "List Workspaces",
  impact: "read",
  description: "Lists the workspaces, newest first, across every page up to the limit.",
  props: {
    limit: Pagination.limit({ description: "The most workspaces returned (Browser Use pages by 100).", defaultValue: 100 })
  },
  output: Schema.Struct({ workspaces: Schema.Array(Workspaces.Workspace) }),
  run: ({ limit }, { client }) =>
    Effect.map(Pagination.collect(Workspaces.workspaces(client, limit ?? 100)), (workspaces) => ({ workspaces }))
})
