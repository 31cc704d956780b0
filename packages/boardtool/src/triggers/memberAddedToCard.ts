import { MemberAddedToCard, refOf } from "../api/activity.js"
import * as MemberOptions from "../options/members.js"
import * as Props from "../props/shared.js"
import * as Activity from "./activity.js"
import * as Cards from "./cardActivity.js"

export const memberAddedToCard = Activity.make({
  name: "memberAddedToCard",
  title: "Member Added to Card",
  description: "Fires when a member is added to a card of the board, optionally only a chosen member.",
  summary: "Members added to cards",
  props: {
    ...Cards.props,
    idMember: Props.trelloId({ title: "Member", description: "Only this member (else: anyone).", dynamicOptions: MemberOptions.boardMembers })
  },
  model: Cards.board,
  types: ["addMemberToCard"],
  matches: (action, params) => {
    const member = refOf(action, "member")
    return Cards.onCard(action, params) && member !== undefined && (params.idMember === undefined || Activity.same(member.id, params.idMember))
  },
  output: MemberAddedToCard,
  read: (action, { client }) => Cards.cardEvent(client, action, { member: refOf(action, "member")! })
})
