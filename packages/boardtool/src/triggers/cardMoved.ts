import { CardMoved, refOf } from "../api/activity.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"
import * as Activity from "./activity.js"
import * as Cards from "./cardActivity.js"

export const cardMoved = Activity.make({
  name: "cardMoved",
  title: "Card Moved to List",
  description: "Fires when a card is moved to a list of the board (from another of its lists, or from another board), optionally only to or from a list.",
  summary: "Cards moved",
  props: {
    idBoard: Cards.props.idBoard,
    toList: Props.trelloId({ title: "To list", description: "Only moves to this list (else: to any list of the board).", dynamicOptions: BoardOptions.lists }),
    fromList: Props.trelloId({ title: "From list", description: "Only moves from this list of the board.", dynamicOptions: BoardOptions.lists })
  },
  model: Cards.board,
  // A move within the board is an updateCard of its list; a move from another board, a moveCardToBoard on this one.
  types: ["updateCard", "moveCardToBoard"],
  matches: (action, { fromList, toList }) => {
    const [before, after] = action.type === "updateCard"
      ? [refOf(action, "listBefore"), refOf(action, "listAfter")]
      : [undefined, refOf(action, "list")]
    return refOf(action, "card") !== undefined && after !== undefined &&
      (toList === undefined || Activity.same(after.id, toList)) &&
      (fromList === undefined || Activity.same(before?.id, fromList))
  },
  output: CardMoved,
  read: (action, { client }) => {
    const boardSource = action.type === "moveCardToBoard" ? refOf(action, "boardSource") : undefined
    return Cards.cardEvent(client, action, {
      listBefore: refOf(action, "listBefore") ?? null,
      listAfter: (refOf(action, "listAfter") ?? refOf(action, "list"))!,
      boardSource: boardSource === undefined ? null : { id: boardSource.id }
    })
  }
})
