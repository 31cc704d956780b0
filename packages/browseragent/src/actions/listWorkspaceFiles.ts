import { Action, Pagination, Property } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Workspaces from "../api/workspaces.js"
import * as Props from "../props.js"

export const listWorkspaceFiles = Action.make({
  name: "listWorkspaceFiles",
  title: "List Workspace Files",
  impact: "read",
  description: "Lists a workspace's files in path order, across every page up to the limit.",
  props: {
    workspaceId: Props.workspaceId({ title: "Workspace", required: true }),
    prefix: Property.string({ title: "Prefix", description: "Only the files whose path starts with this, e.g. `uploads/`." }),
    limit: Pagination.limit({ description: "The most files returned (Browser Use pages by 100).", defaultValue: 100 })
  },
  output: Schema.Struct({ files: Schema.Array(Workspaces.WorkspaceFile) }),
  run: ({ workspaceId, prefix, limit }, { client }) =>
    Effect.map(Pagination.collect(Workspaces.workspaceFiles(client, workspaceId, { prefix, maxItems: limit ?? 100 })), (files) => ({ files }))
})
