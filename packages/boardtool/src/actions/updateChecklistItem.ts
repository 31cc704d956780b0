import { Action, Choice, Property } from "@x/core"
import * as Checklists from "../api/checklists.js"
import * as Props from "../props/shared.js"
import * as Content from "../props/content.js"

export const updateChecklistItem = Action.make({
  name: "updateChecklistItem",
  title: "Update Checklist Item",
  impact: "write", idempotent: true,
  description: "Renames, completes or reopens, moves, dates or assigns a checklist item.",
  props: {
    idBoard: Props.idBoard,
    idCard: Content.idCard,
    idChecklist: Content.checklistToChooseFrom,
    idCheckItem: Content.idCheckItem,
    name: Content.name,
    state: Property.string({ title: "State", choices: Choice.of(["complete", "incomplete"] as const) }),
    pos: Content.checkItemPosition,
    due: Property.dateTime({ title: "Due" }),
    idMember: Props.trelloId({ title: "Member", description: "The member the item is assigned to." })
  },
  validate: ({ due, idMember, name, pos, state }) =>
    [due, idMember, name, pos, state].every((v) => v === undefined) ? [{ path: "state", message: "give something to change" }] : [],
  output: Checklists.CheckItem,
  run: ({ idCard, idCheckItem, pos, due, idMember, name, state }, { client }) =>
    Checklists.updateCheckItem(client, idCard, idCheckItem, { name, state, pos: Props.positionValue(pos), due, idMember })
})
