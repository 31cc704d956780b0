import { Action } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Lists from "../api/lists.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const listBoardLists = Action.make({
  name: "listBoardLists",
  title: "List Board Lists",
  impact: "read",
  description: "Lists a board's lists in their order: open ones (default), archived ones, or all.",
  props: {
    idBoard: Props.trelloId({ title: "Board", required: true, dynamicOptions: BoardOptions.boards }),
    filter: Props.state
  },
  output: Schema.Struct({ lists: Schema.Array(Lists.List) }),
  run: ({ filter, idBoard }, { client }) => Effect.map(Lists.boardLists(client, idBoard, filter ?? "open"), (lists) => ({ lists }))
})
