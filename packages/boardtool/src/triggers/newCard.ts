import * as Effect from "effect/Effect"
import * as Cards from "../api/cards.js"
import { refOf } from "../api/activity.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"
import * as Activity from "./activity.js"

export const newCard = Activity.make({
  name: "newCard",
  title: "New Card",
  description: "Fires when a card is created on a board, or in one of its lists.",
  summary: "New cards",
  props: {
    idBoard: Props.idBoard,
    idList: Props.trelloId({
      title: "List",
      description: "Only cards created in this list (else: anywhere on the board).",
      dynamicOptions: BoardOptions.lists
    })
  },
  validate: ({ idBoard, idList }) =>
    idBoard === undefined && idList === undefined
      ? [{ path: "idBoard", message: "a board or a list is required" }]
      : [],
  model: ({ idBoard, idList }) => (idList === undefined ? { kind: "board", id: idBoard! } : { kind: "list", id: idList }),
  types: ["createCard"],
  matches: (action, params) => refOf(action, "card") !== undefined && watches(params, { idBoard: refOf(action, "board")?.id, idList: refOf(action, "list")?.id }),
  output: Cards.Card,
  // The delivery lacks the card's description: read the card itself. One elsewhere than the
  // delivery says is no event either: the card itself decides.
  read: (action, { client, params }) =>
    Effect.map(Cards.getPlainCard(client, refOf(action, "card")!.id), (card) => (watches(params, card) ? card : undefined))
})

function watches(params: { idBoard?: string | undefined; idList?: string | undefined }, card: { idBoard?: string | undefined; idList?: string | undefined }) {
  return params.idList === undefined ? Activity.same(card.idBoard, params.idBoard) : Activity.same(card.idList, params.idList)
}
