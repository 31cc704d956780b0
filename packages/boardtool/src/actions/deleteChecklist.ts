import { Action } from "@x/core"
import * as Checklists from "../api/checklists.js"
import * as Props from "../props/shared.js"
import * as Content from "../props/content.js"

export const deleteChecklist = Action.make({
  name: "deleteChecklist",
  title: "Delete Checklist",
  impact: "destroy", idempotent: false,
  description: "Deletes a checklist and its items.",
  props: { idBoard: Props.idBoard, idCard: Content.cardToChooseFrom, id: Content.idChecklist },
  run: ({ id }, { client }) => Checklists.deleteChecklist(client, id)
})
