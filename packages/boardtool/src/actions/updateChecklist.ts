import { Action } from "@x/core"
import * as Checklists from "../api/checklists.js"
import * as Props from "../props/shared.js"
import * as Content from "../props/content.js"

export const updateChecklist = Action.make({
  name: "updateChecklist",
  title: "Update Checklist",
  impact: "write", idempotent: true,
  description: "Renames a checklist or moves it on its card.",
  props: { idBoard: Props.idBoard, idCard: Content.cardToChooseFrom, id: Content.idChecklist, name: Content.name, pos: Content.checklistPosition },
  validate: ({ name, pos }) => (name === undefined && pos === undefined ? [{ path: "name", message: "give a name or a position" }] : []),
  output: Checklists.Checklist,
  run: ({ id, name, pos }, { client }) => Checklists.updateChecklist(client, id, { name, pos: Props.positionValue(pos) })
})
