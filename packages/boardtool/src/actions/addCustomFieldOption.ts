import { Action, Choice, Property } from "@x/core"
import * as CustomFields from "../api/customFields.js"
import * as MemberOptions from "../options/members.js"
import * as Props from "../props/shared.js"

export const addCustomFieldOption = Action.make({
  name: "addCustomFieldOption",
  title: "Add Custom Field Option",
  impact: "write", idempotent: false,
  description: "Adds an option to a list (dropdown) custom field: its text, colour and position (at the bottom unless given).",
  props: {
    idBoard: Props.idBoard,
    idCustomField: Props.trelloId({ title: "Custom field", required: true, dynamicOptions: MemberOptions.listCustomFields }),
    text: Property.string({ title: "Text", required: true, minLength: 1, maxLength: 16384 }),
    color: Property.string({ title: "Colour", choices: Choice.of(CustomFields.optionColors), defaultValue: "none" }),
    pos: Property.extend(Props.position, { description: "top, bottom (the default), or a positive number (the field's options are ordered by it)." })
  },
  output: CustomFields.FieldOption,
  run: ({ color, idCustomField, pos, text }, { client }) =>
    CustomFields.addFieldOption(client, idCustomField, { text, color: color ?? "none", pos: Props.positionValue(pos) ?? "bottom" })
})
