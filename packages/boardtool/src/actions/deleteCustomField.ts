import { Action } from "@x/core"
import * as CustomFields from "../api/customFields.js"
import * as MemberOptions from "../options/members.js"
import * as Props from "../props/shared.js"

export const deleteCustomField = Action.make({
  name: "deleteCustomField",
  title: "Delete Custom Field",
  impact: "destroy", idempotent: false,
  description: "Deletes a board's custom field, and every card's value of it.",
  props: {
    idBoard: Props.idBoard,
    idCustomField: Props.trelloId({ title: "Custom field", required: true, dynamicOptions: MemberOptions.customFields })
  },
  run: ({ idCustomField }, { client }) => CustomFields.deleteCustomField(client, idCustomField)
})
