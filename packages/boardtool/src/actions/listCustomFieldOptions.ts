import { Action } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as CustomFields from "../api/customFields.js"
import * as MemberOptions from "../options/members.js"
import * as Props from "../props/shared.js"

export const listCustomFieldOptions = Action.make({
  name: "listCustomFieldOptions",
  title: "List Custom Field Options",
  impact: "read",
  description: "Lists the options of a list (dropdown) custom field, in their order.",
  props: {
    idBoard: Props.idBoard,
    idCustomField: Props.trelloId({ title: "Custom field", required: true, dynamicOptions: MemberOptions.listCustomFields })
  },
  output: Schema.Struct({ options: Schema.Array(CustomFields.FieldOption) }),
  run: ({ idCustomField }, { client }) => Effect.map(CustomFields.fieldOptions(client, idCustomField), (options) => ({ options }))
})
