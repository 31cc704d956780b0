import { Action } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Boards from "../api/boards.js"
import * as Props from "../props/shared.js"

export const listMyBoards = Action.make({
  name: "listMyBoards",
  title: "List My Boards",
  impact: "read",
  description: "Lists the boards you are a member of: open ones (default), closed ones, or all.",
  props: { filter: Props.state },
  output: Schema.Struct({ boards: Schema.Array(Boards.Board) }),
  run: ({ filter }, { client }) => Effect.map(Boards.memberBoards(client, filter ?? "open"), (boards) => ({ boards }))
})
