import { Action } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as CustomFields from "../api/customFields.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const getCardCustomFieldValues = Action.make({
  name: "getCardCustomFieldValues",
  title: "Get Card Custom Field Values",
  impact: "read",
  description: "Reads a card's custom field values (a list field's value is its option's id).",
  props: {
    idBoard: Props.idBoard,
    idCard: Props.trelloId({ title: "Card", required: true, dynamicOptions: BoardOptions.cards })
  },
  output: Schema.Struct({ items: Schema.Array(CustomFields.CustomFieldItem) }),
  run: ({ idCard }, { client }) => Effect.map(CustomFields.cardCustomFieldItems(client, idCard), (items) => ({ items }))
})
