import { Action } from "@x/core"
import * as Labels from "../api/labels.js"
import * as Props from "../props/shared.js"
import * as Content from "../props/content.js"

export const deleteLabel = Action.make({
  name: "deleteLabel",
  title: "Delete Label",
  impact: "destroy", idempotent: false,
  description: "Deletes a label from its board and from every card that has it.",
  props: { idBoard: Props.idBoard, id: Content.idLabel },
  run: ({ id }, { client }) => Labels.deleteLabel(client, id)
})
