import { CheckItemCompleted, checkItemRefOf, refOf } from "../api/activity.js"
import * as Activity from "./activity.js"
import * as Cards from "./cardActivity.js"

export const checklistItemCompleted = Activity.make({
  name: "checklistItemCompleted",
  title: "Checklist Item Completed",
  description: "Fires when a checklist item of a card of the board is ticked (marked complete).",
  summary: "Completed checklist items",
  props: Cards.props,
  model: Cards.board,
  types: ["updateCheckItemStateOnCard"],
  matches: (action, params) => Cards.onCard(action, params) && checkItemRefOf(action)?.state === "complete" && refOf(action, "checklist") !== undefined,
  output: CheckItemCompleted,
  read: (action, { client }) => Cards.cardEvent(client, action, { checkItem: checkItemRefOf(action)!, checklist: refOf(action, "checklist")! })
})
