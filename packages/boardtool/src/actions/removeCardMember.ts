import { Action } from "@x/core"
import * as Members from "../api/members.js"
import * as BoardOptions from "../options/boards.js"
import * as MemberOptions from "../options/members.js"
import * as Props from "../props/shared.js"

export const removeCardMember = Action.make({
  name: "removeCardMember",
  title: "Remove Member from Card",
  impact: "write", idempotent: false,
  description: "Unassigns a member from a card.",
  props: {
    idBoard: Props.idBoard,
    idCard: Props.trelloId({ title: "Card", required: true, dynamicOptions: BoardOptions.cards }),
    idMember: Props.trelloId({ title: "Member", required: true, dynamicOptions: MemberOptions.boardMembers })
  },
  run: ({ idCard, idMember }, { client }) => Members.removeCardMember(client, idCard, idMember)
})
