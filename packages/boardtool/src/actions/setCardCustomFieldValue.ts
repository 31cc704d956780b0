import { Action } from "@x/core"
import * as CustomFields from "../api/customFields.js"
import * as CustomFieldValue from "../customFieldValue.js"
import * as BoardOptions from "../options/boards.js"
import * as MemberOptions from "../options/members.js"
import * as Props from "../props/shared.js"

export const setCardCustomFieldValue = Action.make({
  name: "setCardCustomFieldValue",
  title: "Set Card Custom Field Value",
  impact: "write", idempotent: true,
  description: "Sets a card's value of a custom field, typed by the field's kind (text, number, date, checkbox, list option).",
  props: {
    idBoard: Props.trelloId({ title: "Board", required: true, dynamicOptions: BoardOptions.boards }),
    idCard: Props.trelloId({ title: "Card", required: true, dynamicOptions: BoardOptions.cards }),
    idCustomField: Props.trelloId({ title: "Custom field", required: true, dynamicOptions: MemberOptions.customFields }),
    value: CustomFieldValue.value
  },
  output: CustomFields.CustomFieldItem,
  run: ({ idCard, idCustomField, value }, { client }) =>
    CustomFields.setCardCustomFieldItem(client, idCard, idCustomField, CustomFieldValue.toWire(value))
})
