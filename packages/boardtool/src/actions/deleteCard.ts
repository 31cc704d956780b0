import { Action } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Cards from "../api/cards.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const deleteCard = Action.make({
  name: "deleteCard",
  title: "Delete Card",
  impact: "destroy", idempotent: false,
  description: "Deletes a card for good (archive it to keep it restorable).",
  props: {
    idBoard: Props.idBoard,
    id: Props.trelloId({ title: "Card", required: true, dynamicOptions: BoardOptions.cards })
  },
  output: Schema.Struct({ id: Schema.String, deleted: Schema.Literal(true) }),
  run: ({ id }, { client }) => Effect.as(Cards.deleteCard(client, id), { id, deleted: true as const })
})
