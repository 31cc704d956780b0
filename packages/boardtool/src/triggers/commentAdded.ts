import { CommentAdded, textOf } from "../api/activity.js"
import * as Activity from "./activity.js"
import * as Cards from "./cardActivity.js"

export const commentAdded = Activity.make({
  name: "commentAdded",
  title: "Comment Added",
  description: "Fires when someone comments on a card of the board (or of a list, or one card).",
  summary: "Comments",
  props: Cards.props,
  model: Cards.board,
  types: ["commentCard"],
  matches: (action, params) => Cards.onCard(action, params) && textOf(action, "text") !== undefined,
  output: CommentAdded,
  read: (action, { client }) => Cards.cardEvent(client, action, { text: textOf(action, "text")! })
})
