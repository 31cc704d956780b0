import { Action } from "@x/core"
import * as Members from "../api/members.js"
import * as BoardOptions from "../options/boards.js"
import * as MemberOptions from "../options/members.js"
import * as Props from "../props/shared.js"

export const removeBoardMember = Action.make({
  name: "removeBoardMember",
  title: "Remove Member from Board",
  impact: "destroy", idempotent: false,
  description: "Removes a member from a board (and so from its cards).",
  props: {
    idBoard: Props.trelloId({ title: "Board", required: true, dynamicOptions: BoardOptions.boards }),
    idMember: Props.trelloId({ title: "Member", required: true, dynamicOptions: MemberOptions.boardMembers })
  },
  run: ({ idBoard, idMember }, { client }) => Members.removeBoardMember(client, idBoard, idMember)
})
