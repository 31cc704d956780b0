import * as Effect from "effect/Effect"
import { activityOf, NewList, refOf } from "../api/activity.js"
import * as Lists from "../api/lists.js"
import * as Activity from "./activity.js"
import * as Cards from "./cardActivity.js"

export const newList = Activity.make({
  name: "newList",
  title: "New List",
  description: "Fires when a list is created on the board.",
  summary: "New lists",
  props: { idBoard: Cards.props.idBoard },
  model: Cards.board,
  types: ["createList"],
  matches: (action) => refOf(action, "list") !== undefined,
  output: NewList,
  // The delivery names the list: its position and state are read back.
  read: (action, { client }) => Effect.map(Lists.getList(client, refOf(action, "list")!.id), (list) => ({ action: activityOf(action), list }))
})
