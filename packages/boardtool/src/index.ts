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
// cards and votes
import { updateCard } from "./actions/updateCard.js"
import { deleteCard } from "./actions/deleteCard.js"
import { moveCard } from "./actions/moveCard.js"
import { archiveCard } from "./actions/archiveCard.js"
import { unarchiveCard } from "./actions/unarchiveCard.js"
import { copyCard } from "./actions/copyCard.js"
import { listListCards } from "./actions/listListCards.js"
import { listBoardCards } from "./actions/listBoardCards.js"
import { listCardActivity } from "./actions/listCardActivity.js"
import { voteOnCard } from "./actions/voteOnCard.js"
import { removeVote } from "./actions/removeVote.js"
import { listVoters } from "./actions/listVoters.js"
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
// --- comments, checklists, labels ---
import { addComment } from "./actions/addComment.js"
import { listComments } from "./actions/listComments.js"
import { updateComment } from "./actions/updateComment.js"
import { deleteComment } from "./actions/deleteComment.js"
import { addReaction } from "./actions/addReaction.js"
import { createChecklist } from "./actions/createChecklist.js"
import { listCardChecklists } from "./actions/listCardChecklists.js"
import { updateChecklist } from "./actions/updateChecklist.js"
import { deleteChecklist } from "./actions/deleteChecklist.js"
import { addChecklistItem } from "./actions/addChecklistItem.js"
import { updateChecklistItem } from "./actions/updateChecklistItem.js"
import { deleteChecklistItem } from "./actions/deleteChecklistItem.js"
import { listBoardLabels } from "./actions/listBoardLabels.js"
import { createLabel } from "./actions/createLabel.js"
import { updateLabel } from "./actions/updateLabel.js"
import { deleteLabel } from "./actions/deleteLabel.js"
import { addLabelToCard } from "./actions/addLabelToCard.js"
import { removeLabelFromCard } from "./actions/removeLabelFromCard.js"
// lists, boards, search
import { createList } from "./actions/createList.js"
import { getList } from "./actions/getList.js"
import { updateList } from "./actions/updateList.js"
import { archiveList } from "./actions/archiveList.js"
import { unarchiveList } from "./actions/unarchiveList.js"
import { moveListToBoard } from "./actions/moveListToBoard.js"
import { listBoardLists } from "./actions/listBoardLists.js"
import { findListByName } from "./actions/findListByName.js"
import { moveAllCards } from "./actions/moveAllCards.js"
import { getBoard } from "./actions/getBoard.js"
import { updateBoard } from "./actions/updateBoard.js"
import { closeBoard } from "./actions/closeBoard.js"
import { reopenBoard } from "./actions/reopenBoard.js"
import { deleteBoard } from "./actions/deleteBoard.js"
import { listMyBoards } from "./actions/listMyBoards.js"
import { listWorkspaceBoards } from "./actions/listWorkspaceBoards.js"
import { searchBoards } from "./actions/searchBoards.js"
import { searchCards } from "./actions/searchCards.js"
import { cardDueSoon } from "./triggers/cardDueSoon.js"
import { newCard } from "./triggers/newCard.js"

/** Lists, boards and search: their actions together (merges of other areas stay apart). */
const listsAndBoards = [
  createList,
  getList,
  updateList,
  archiveList,
  unarchiveList,
  moveListToBoard,
  listBoardLists,
  findListByName,
  moveAllCards,
  getBoard,
  updateBoard,
  closeBoard,
  reopenBoard,
  deleteBoard,
  listMyBoards,
  listWorkspaceBoards,
  searchBoards,
  searchCards
] as const

export const boardtool = Component.make({
  name: "boardtool",
  version: 1,
  title: "Board Tool",
  description: "Project management with boards, lists and cards.",
  category: "Productivity and Collaboration",
  connection,
  actions: [
    createBoard, createCard, getCard, listBoardActions, archiveAllCards, addAttachment, downloadAttachment,
    // cards and votes
    updateCard, deleteCard, moveCard, archiveCard, unarchiveCard, copyCard, listListCards, listBoardCards, listCardActivity,
    voteOnCard, removeVote, listVoters,
    // comments
    addComment, listComments, updateComment, addReaction, deleteComment,
    // checklists
    createChecklist, addChecklistItem, updateChecklistItem, listCardChecklists, updateChecklist, deleteChecklistItem, deleteChecklist,
    // labels
    listBoardLabels, createLabel, updateLabel, addLabelToCard, removeLabelFromCard, deleteLabel,
    // lists, boards, search
    ...listsAndBoards,
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
// --- comments, checklists, labels ---
export { CheckItem, Checklist } from "./api/checklists.js"
export { Comment, Reaction } from "./api/comments.js"
export { Label } from "./api/labels.js"
export {
  addChecklistItem,
  addComment,
  addLabelToCard,
  addReaction,
  createChecklist,
  createLabel,
  deleteChecklist,
  deleteChecklistItem,
  deleteComment,
  deleteLabel,
  listBoardLabels,
  listCardChecklists,
  listComments,
  removeLabelFromCard,
  updateChecklist,
  updateChecklistItem,
  updateComment,
  updateLabel,
}
// cards and votes
export { CardDetails, CardLabel, CardMember, CardWithNested } from "./api/cards.js"
// lists, boards, search
export { Board, Workspace } from "./api/boards.js"
export { List } from "./api/lists.js"
export { FoundCard } from "./api/search.js"
export {
  createList,
  getList,
  updateList,
  archiveList,
  unarchiveList,
  moveListToBoard,
  listBoardLists,
  findListByName,
  moveAllCards,
  getBoard,
  updateBoard,
  closeBoard,
  reopenBoard,
  deleteBoard,
  listMyBoards,
  listWorkspaceBoards,
  searchBoards,
  searchCards
}
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
// cards and votes
export { archiveCard, copyCard, deleteCard, listBoardCards, listCardActivity, listListCards, listVoters, moveCard, removeVote, unarchiveCard, updateCard, voteOnCard }
