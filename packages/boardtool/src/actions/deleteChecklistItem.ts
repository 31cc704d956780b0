import { Action } from "@x/core"
import * as Checklists from "../api/checklists.js"
import * as Props from "../props/shared.js"
import * as Content from "../props/content.js"

export const deleteChecklistItem = Action.make({
  name: "deleteChecklistItem",
  title: "Delete Checklist Item",
  impact: "destroy", idempotent: false,
  description: "Deletes an item from a checklist.",
  props: { idBoard: Props.idBoard, idCard: Content.cardToChooseFrom, idChecklist: Content.idChecklist, idCheckItem: Content.idCheckItem },
  run: ({ idCheckItem, idChecklist }, { client }) => Checklists.deleteCheckItem(client, idChecklist, idCheckItem)
})
