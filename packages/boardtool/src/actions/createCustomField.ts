import { Action, Choice, Property } from "@x/core"
import * as CustomFields from "../api/customFields.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const createCustomField = Action.make({
  name: "createCustomField",
  title: "Create Custom Field",
  impact: "write", idempotent: false,
  description: "Adds a custom field to a board: text, number, date, checkbox, or a list (dropdown) with its options.",
  props: {
    idBoard: Props.trelloId({ title: "Board", required: true, dynamicOptions: BoardOptions.boards }),
    name: Property.string({ title: "Name", required: true, minLength: 1, maxLength: 16384 }),
    type: Property.string({ title: "Kind", required: true, choices: Choice.of(CustomFields.kinds) }),
    options: Property.array({
      title: "Options",
      description: "A list field's options, in order.",
      minItems: 1,
      items: Property.string({ title: "Option", required: true, minLength: 1, maxLength: 16384 })
    }),
    cardFront: Property.boolean({ title: "Show on card front", defaultValue: true })
  },
  validate: ({ options, type }) =>
    type === "list" && options === undefined
      ? [{ path: "options", message: "a list field needs its options" }]
      : type !== "list" && options !== undefined
      ? [{ path: "options", message: "only a list field has options" }]
      : [],
  output: CustomFields.CustomField,
  run: (field, { client }) => CustomFields.createCustomField(client, field)
})
