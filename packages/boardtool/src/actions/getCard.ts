import { Action, Property } from "@x/core"
import * as Cards from "../api/cards.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const getCard = Action.make({
  name: "getCard",
  title: "Get Card",
  impact: "read",
  description: "Reads a card, optionally with its attachments, checklists, custom field values and members.",
  props: {
    idBoard: Props.idBoard,
    id: Props.trelloId({ title: "Card", required: true, dynamicOptions: BoardOptions.cards }),
    attachments: Property.boolean({ title: "With attachments" }),
    checklists: Property.boolean({ title: "With checklists" }),
    customFieldItems: Property.boolean({ title: "With custom field values" }),
    members: Property.boolean({ title: "With members" })
  },
  output: Cards.CardWithNested,
  run: ({ id, idBoard: _board, ...nested }, { client }) => Cards.getCard(client, id, nested)
})
