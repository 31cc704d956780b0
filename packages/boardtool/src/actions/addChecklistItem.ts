import { Action, Property } from "@x/core"
import * as Checklists from "../api/checklists.js"
import * as Props from "../props/shared.js"
import * as Content from "../props/content.js"

export const addChecklistItem = Action.make({
  name: "addChecklistItem",
  title: "Add Checklist Item",
  impact: "write", idempotent: false,
  description: "Adds an item to a checklist, optionally ticked, dated or assigned to a member.",
  props: {
    idBoard: Props.idBoard,
    idCard: Content.cardToChooseFrom,
    idChecklist: Content.idChecklist,
    name: Property.string({ title: "Name", required: true, minLength: 1, maxLength: 16384 }),
    pos: Content.checkItemPosition,
    checked: Property.boolean({ title: "Completed" }),
    due: Property.dateTime({ title: "Due" }),
    idMember: Props.trelloId({ title: "Member", description: "The member the item is assigned to." })
  },
  output: Checklists.CheckItem,
  run: ({ idChecklist, pos, ...item }, { client }) =>
    Checklists.addCheckItem(client, idChecklist, { ...item, pos: Props.positionValue(pos) })
})
