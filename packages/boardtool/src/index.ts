/**
 * @x/boardtool: the board component, `boardtool/v1` (Trello REST API 1).
 */
import { Client, Component } from "@x/core"
import { addAttachment } from "./actions/addAttachment.js"
import { archiveAllCards } from "./actions/archiveAllCards.js"
import { createBoard } from "./actions/createBoard.js"
import { createCard } from "./actions/createCard.js"
import { downloadAttachment } from "./actions/downloadAttachment.js"
import { getCard } from "./actions/getCard.js"
import { listBoardActions } from "./actions/listBoardActions.js"
// members, attachments, custom fields
import { getMe } from "./actions/getMe.js"
import { getMember } from "./actions/getMember.js"
import { searchMembers } from "./actions/searchMembers.js"
import { listBoardMembers } from "./actions/listBoardMembers.js"
import { addBoardMember } from "./actions/addBoardMember.js"
import { removeBoardMember } from "./actions/removeBoardMember.js"
import { listCardMembers } from "./actions/listCardMembers.js"
import { addCardMember } from "./actions/addCardMember.js"
import { removeCardMember } from "./actions/removeCardMember.js"
import { listAttachments } from "./actions/listAttachments.js"
import { getAttachment } from "./actions/getAttachment.js"
import { deleteAttachment } from "./actions/deleteAttachment.js"
import { listCustomFields } from "./actions/listCustomFields.js"
import { createCustomField } from "./actions/createCustomField.js"
import { deleteCustomField } from "./actions/deleteCustomField.js"
import { getCardCustomFieldValues } from "./actions/getCardCustomFieldValues.js"
import { setCardCustomFieldValue } from "./actions/setCardCustomFieldValue.js"
import { connection } from "./connection.js"
import { cardDueSoon } from "./triggers/cardDueSoon.js"
import { newCard } from "./triggers/newCard.js"

export const boardtool = Component.make({
  name: "boardtool",
  version: 1,
  title: "Board Tool",
  description: "Project management with boards, lists and cards.",
  category: "Productivity and Collaboration",
  connection,
  actions: [
    createBoard, createCard, getCard, listBoardActions, archiveAllCards, addAttachment, downloadAttachment,
    // members
    getMe, getMember, searchMembers, listBoardMembers, addBoardMember, removeBoardMember, listCardMembers, addCardMember, removeCardMember,
    // attachments
    listAttachments, getAttachment, deleteAttachment,
    // custom fields
    listCustomFields, createCustomField, deleteCustomField, getCardCustomFieldValues, setCardCustomFieldValue
  ],
  triggers: [newCard, cardDueSoon],
  customAction: true
})

/**
 * The typed clients of boardtool: `Boardtool.client(connection)` (Promise) and `Boardtool.effect(connection)`
 * (Effect), one method per action.
 */
export const Boardtool = Client.make(boardtool)

export { Attachment, BoardAction, Card, DueCard } from "./api.js"
// members, attachments, custom fields
export { CustomField, CustomFieldItem } from "./api/customFields.js"
export { Member } from "./api/members.js"
export {
  getMe,
  getMember,
  searchMembers,
  listBoardMembers,
  addBoardMember,
  removeBoardMember,
  listCardMembers,
  addCardMember,
  removeCardMember,
  listAttachments,
  getAttachment,
  deleteAttachment,
  listCustomFields,
  createCustomField,
  deleteCustomField,
  getCardCustomFieldValues,
  setCardCustomFieldValue,
}
export {
  addAttachment,
  archiveAllCards,
  cardDueSoon,
  connection,
  createBoard,
  createCard,
  downloadAttachment,
  getCard,
  listBoardActions,
  newCard
}
