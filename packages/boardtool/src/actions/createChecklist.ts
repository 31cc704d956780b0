import { Action } from "@x/core"
import * as Checklists from "../api/checklists.js"
import * as Props from "../props/shared.js"
import * as Content from "../props/content.js"

export const createChecklist = Action.make({
  name: "createChecklist",
  title: "Create Checklist",
  impact: "write", idempotent: false,
  description: "Adds a checklist to a card, empty or copied (with its items) from another checklist.",
  props: {
    idBoard: Props.idBoard,
    idCard: Content.idCard,
    name: Content.name,
    idChecklistSource: Props.trelloId({ title: "Copy from checklist", description: "The id of a checklist whose items the new one gets." }),
    pos: Content.checklistPosition
  },
  output: Checklists.Checklist,
  run: ({ idCard, idChecklistSource, name, pos }, { client }) =>
    Checklists.createChecklist(client, idCard, { name, idChecklistSource, pos: Props.positionValue(pos) })
})
