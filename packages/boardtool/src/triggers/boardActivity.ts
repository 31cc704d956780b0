import { Property } from "@x/core"
import * as Effect from "effect/Effect"
import { TrelloAction } from "../api/activity.js"
import * as Activity from "./activity.js"
import * as Cards from "./cardActivity.js"

/** Trello's action types (its "Action Types" guide) on a board, its lists and cards. */
export const actionTypes = [
  "addAttachmentToCard", "addChecklistToCard", "addLabelToCard", "addMemberToBoard", "addMemberToCard", "addToOrganizationBoard",
  "commentCard", "convertToCardFromCheckItem", "copyBoard", "copyCard", "copyCommentCard", "createBoard", "createCard",
  "createCheckItem", "createCustomField", "createLabel", "createList", "deleteAttachmentFromCard", "deleteCard", "deleteCheckItem",
  "deleteComment", "deleteCustomField", "deleteLabel", "emailCard", "makeAdminOfBoard", "makeNormalMemberOfBoard",
  "makeObserverOfBoard", "moveCardFromBoard", "moveCardToBoard", "moveListFromBoard", "moveListToBoard", "removeChecklistFromCard",
  "removeFromOrganizationBoard", "removeLabelFromCard", "removeMemberFromBoard", "removeMemberFromCard", "updateBoard", "updateCard",
  "updateCheckItem", "updateCheckItemStateOnCard", "updateChecklist", "updateComment", "updateCustomField", "updateCustomFieldItem",
  "updateLabel", "updateList", "voteOnCard"
] as const

export const boardActivity = Activity.make({
  name: "boardActivity",
  title: "Board Activity",
  description: "Fires on any of Trello's action types on a board, or on one of its lists or cards: the chosen types, or all of them.",
  summary: "Activity",
  props: {
    ...Cards.props,
    types: Property.array({
      title: "Action types",
      description: "Only these of Trello's action types (else: every action).",
      items: Property.string({ title: "Action type", choices: actionTypes.map((value) => ({ label: value, value })) })
    })
  },
  // The narrowest model asked for: Trello delivers a card's (or list's) actions to a webhook on it.
  model: ({ idBoard, idCard, idList }) =>
    idCard !== undefined ? { kind: "card", id: idCard } : idList !== undefined ? { kind: "list", id: idList } : { kind: "board", id: idBoard },
  types: ({ types }) => types ?? [],
  output: TrelloAction,
  // The action itself: its data is what Trello recorded.
  read: (action) => Effect.succeed(action)
})
