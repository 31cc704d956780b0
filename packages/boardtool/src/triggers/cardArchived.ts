import { CardEvent, recordOf, refOf } from "../api/activity.js"
import * as Activity from "./activity.js"
import * as Cards from "./cardActivity.js"

export const cardArchived = Activity.make({
  name: "cardArchived",
  title: "Card Archived",
  description: "Fires when a card of the board (or of one of its lists) is archived.",
  summary: "Archived cards",
  props: { idBoard: Cards.props.idBoard, idList: Cards.props.idList },
  model: Cards.board,
  types: ["updateCard"],
  // Archiving is an updateCard of `closed`, false before.
  matches: (action, params) =>
    Cards.onCard(action, params) && recordOf(action, "old")["closed"] === false &&
    (action.data["card"] as { closed?: unknown } | undefined)?.closed === true && refOf(action, "card") !== undefined,
  output: CardEvent,
  read: (action, { client }) => Cards.cardEvent(client, action, {})
})
