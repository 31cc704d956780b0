import { Action } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as CustomFields from "../api/customFields.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const listCustomFields = Action.make({
  name: "listCustomFields",
  title: "List Custom Fields",
  impact: "read",
  description: "Lists a board's custom fields, with a list field's options.",
  props: {
    idBoard: Props.trelloId({ title: "Board", required: true, dynamicOptions: BoardOptions.boards })
  },
  output: Schema.Struct({ customFields: Schema.Array(CustomFields.CustomField) }),
  run: ({ idBoard }, { client }) => Effect.map(CustomFields.boardCustomFields(client, idBoard), (customFields) => ({ customFields }))
})
