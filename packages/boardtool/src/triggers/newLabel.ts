import * as Effect from "effect/Effect"
import { activityOf, labelRefOf, NewLabel, refOf } from "../api/activity.js"
import * as Activity from "./activity.js"
import * as Cards from "./cardActivity.js"

export const newLabel = Activity.make({
  name: "newLabel",
  title: "New Label",
  description: "Fires when a label is created on the board.",
  summary: "New labels",
  props: { idBoard: Cards.props.idBoard },
  model: Cards.board,
  types: ["createLabel"],
  matches: (action) => labelRefOf(action) !== undefined,
  output: NewLabel,
  // The action names the label whole (id, name, colour) and its board: nothing to read back.
  read: (action, { params }) => {
    const { color, id, name } = labelRefOf(action)!
    return Effect.succeed({ action: activityOf(action), label: { id, name: name ?? "", color, idBoard: refOf(action, "board")?.id ?? params.idBoard } })
  }
})
