/**
 * @x/boardtool: the board component, `boardtool/v1` (Trello REST API 1).
 */
import { Client, Component } from "@x/core"
import { addAttachment } from "./actions/addAttachment.js"
import { addBoardMember } from "./actions/addBoardMember.js"
import { addCardMember } from "./actions/addCardMember.js"
import { addCustomFieldOption } from "./actions/addCustomFieldOption.js"
import { addChecklistItem } from "./actions/addChecklistItem.js"
import { addComment } from "./actions/addComment.js"
import { addLabelToCard } from "./actions/addLabelToCard.js"
import { addReaction } from "./actions/addReaction.js"
import { archiveAllCards } from "./actions/archiveAllCards.js"
import { archiveCard } from "./actions/archiveCard.js"
import { archiveList } from "./actions/archiveList.js"
import { closeBoard } from "./actions/closeBoard.js"
import { copyCard } from "./actions/copyCard.js"
import { createBoard } from "./actions/createBoard.js"
import { createCard } from "./actions/createCard.js"
import { createChecklist } from "./actions/createChecklist.js"
import { createCustomField } from "./actions/createCustomField.js"
import { createLabel } from "./actions/createLabel.js"
import { createList } from "./actions/createList.js"
import { deleteAttachment } from "./actions/deleteAttachment.js"
import { deleteBoard } from "./actions/deleteBoard.js"
import { deleteCard } from "./actions/deleteCard.js"
import { deleteChecklist } from "./actions/deleteChecklist.js"
import { deleteChecklistItem } from "./actions/deleteChecklistItem.js"
import { deleteComment } from "./actions/deleteComment.js"
import { deleteCustomField } from "./actions/deleteCustomField.js"
import { deleteLabel } from "./actions/deleteLabel.js"
import { downloadAttachment } from "./actions/downloadAttachment.js"
import { findListByName } from "./actions/findListByName.js"
import { getAttachment } from "./actions/getAttachment.js"
import { getBoard } from "./actions/getBoard.js"
import { getCard } from "./actions/getCard.js"
import { getCardCustomFieldValues } from "./actions/getCardCustomFieldValues.js"
import { getList } from "./actions/getList.js"
import { getMe } from "./actions/getMe.js"
import { getMember } from "./actions/getMember.js"
import { listAttachments } from "./actions/listAttachments.js"
import { listBoardActions } from "./actions/listBoardActions.js"
import { listBoardCards } from "./actions/listBoardCards.js"
import { listBoardLabels } from "./actions/listBoardLabels.js"
import { listBoardLists } from "./actions/listBoardLists.js"
import { listBoardMembers } from "./actions/listBoardMembers.js"
import { listCardActivity } from "./actions/listCardActivity.js"
import { listCardChecklists } from "./actions/listCardChecklists.js"
import { listCardMembers } from "./actions/listCardMembers.js"
import { listComments } from "./actions/listComments.js"
import { listCustomFieldOptions } from "./actions/listCustomFieldOptions.js"
import { listCustomFields } from "./actions/listCustomFields.js"
import { listListCards } from "./actions/listListCards.js"
import { listMyBoards } from "./actions/listMyBoards.js"
import { listNotifications } from "./actions/listNotifications.js"
import { listVoters } from "./actions/listVoters.js"
import { listWorkspaceBoards } from "./actions/listWorkspaceBoards.js"
import { markAllNotificationsRead } from "./actions/markAllNotificationsRead.js"
import { markNotificationRead } from "./actions/markNotificationRead.js"
import { moveAllCards } from "./actions/moveAllCards.js"
import { moveCard } from "./actions/moveCard.js"
import { moveListToBoard } from "./actions/moveListToBoard.js"
import { removeBoardMember } from "./actions/removeBoardMember.js"
import { removeCardMember } from "./actions/removeCardMember.js"
import { removeLabelFromCard } from "./actions/removeLabelFromCard.js"
import { removeVote } from "./actions/removeVote.js"
import { reopenBoard } from "./actions/reopenBoard.js"
import { searchBoards } from "./actions/searchBoards.js"
import { searchCards } from "./actions/searchCards.js"
import { searchMembers } from "./actions/searchMembers.js"
import { setCardCustomFieldValue } from "./actions/setCardCustomFieldValue.js"
import { unarchiveCard } from "./actions/unarchiveCard.js"
import { unarchiveList } from "./actions/unarchiveList.js"
import { updateBoard } from "./actions/updateBoard.js"
import { updateCard } from "./actions/updateCard.js"
import { updateChecklist } from "./actions/updateChecklist.js"
import { updateChecklistItem } from "./actions/updateChecklistItem.js"
import { updateComment } from "./actions/updateComment.js"
import { updateLabel } from "./actions/updateLabel.js"
import { updateList } from "./actions/updateList.js"
import { voteOnCard } from "./actions/voteOnCard.js"
import { connection } from "./connection.js"
import { cardDueSoon } from "./triggers/cardDueSoon.js"
import { newCard } from "./triggers/newCard.js"
import { cardMoved } from "./triggers/cardMoved.js"
import { cardUpdated } from "./triggers/cardUpdated.js"
import { cardArchived } from "./triggers/cardArchived.js"
import { commentAdded } from "./triggers/commentAdded.js"
import { labelAddedToCard } from "./triggers/labelAddedToCard.js"
import { memberAddedToCard } from "./triggers/memberAddedToCard.js"
import { attachmentAdded } from "./triggers/attachmentAdded.js"
import { checklistItemCompleted } from "./triggers/checklistItemCompleted.js"
import { newList } from "./triggers/newList.js"
import { newLabel } from "./triggers/newLabel.js"
import { newBoardInWorkspace } from "./triggers/newBoardInWorkspace.js"
import { boardActivity } from "./triggers/boardActivity.js"
import { newNotification } from "./triggers/newNotification.js"

// In this order, the request contract test runs them: each area's deletions come after its other actions.
export const boardtool = Component.make({
  name: "boardtool",
  version: 1,
  title: "Board Tool",
  description: "Project management with boards, lists and cards.",
  category: "Productivity and Collaboration",
  connection,
  actions: [
    // the seed's first actions, files and bulk
    createBoard, createCard, getCard, listBoardActions, archiveAllCards, addAttachment, downloadAttachment,
    // cards and votes
    updateCard, deleteCard, moveCard, archiveCard, unarchiveCard, copyCard, listListCards, listBoardCards, listCardActivity, voteOnCard, removeVote, listVoters,
    // comments
    addComment, listComments, updateComment, addReaction, deleteComment,
    // checklists
    createChecklist, addChecklistItem, updateChecklistItem, listCardChecklists, updateChecklist, deleteChecklistItem, deleteChecklist,
    // labels
    listBoardLabels, createLabel, updateLabel, addLabelToCard, removeLabelFromCard, deleteLabel,
    // lists, boards, search
    createList, getList, updateList, archiveList, unarchiveList, moveListToBoard, listBoardLists, findListByName, moveAllCards, getBoard, updateBoard, closeBoard, reopenBoard, deleteBoard, listMyBoards, listWorkspaceBoards, searchBoards, searchCards,
    // members
    getMe, getMember, searchMembers, listBoardMembers, addBoardMember, removeBoardMember, listCardMembers, addCardMember, removeCardMember,
    // notifications
    listNotifications, markNotificationRead, markAllNotificationsRead,
    // attachments
    listAttachments, getAttachment, deleteAttachment,
    // custom fields
    listCustomFields, createCustomField, listCustomFieldOptions, addCustomFieldOption, deleteCustomField, getCardCustomFieldValues, setCardCustomFieldValue
  ],
  triggers: [newCard, cardDueSoon, cardMoved, cardUpdated, cardArchived, commentAdded, labelAddedToCard, memberAddedToCard, attachmentAdded, checklistItemCompleted, newList, newLabel, newBoardInWorkspace, boardActivity, newNotification],
  customAction: true
})

/**
 * The typed clients of boardtool: `Boardtool.client(connection)` (Promise) and `Boardtool.effect(connection)`
 * (Effect), one method per action.
 */
export const Boardtool = Client.make(boardtool)

// The records the actions output, as Schemas.
export { Attachment, BoardAction, Card, DueCard } from "./api.js"
export { Activity, AttachmentAdded, CardEvent, CardMoved, CardUpdated, CheckItemCompleted, CommentAdded, LabelAddedToCard, MemberAddedToCard, NewBoard, NewLabel, NewList, TrelloAction } from "./api/activity.js"
export { Board, Workspace } from "./api/boards.js"
export { CardDetails, CardLabel, CardMember, CardWithNested } from "./api/cards.js"
export { CheckItem, Checklist } from "./api/checklists.js"
export { Comment, Reaction } from "./api/comments.js"
export { CustomField, CustomFieldItem, FieldOption } from "./api/customFields.js"
export { Label } from "./api/labels.js"
export { List } from "./api/lists.js"
export { Member } from "./api/members.js"
export { Notification } from "./api/notifications.js"
export { FoundCard } from "./api/search.js"

export {
  addAttachment,
  addBoardMember,
  attachmentAdded,
  boardActivity,
  cardArchived,
  cardMoved,
  cardUpdated,
  checklistItemCompleted,
  commentAdded,
  labelAddedToCard,
  memberAddedToCard,
  newBoardInWorkspace,
  newLabel,
  newList,
  addCardMember,
  addChecklistItem,
  addCustomFieldOption,
  addComment,
  addLabelToCard,
  addReaction,
  archiveAllCards,
  archiveCard,
  archiveList,
  cardDueSoon,
  closeBoard,
  connection,
  copyCard,
  createBoard,
  createCard,
  createChecklist,
  createCustomField,
  createLabel,
  createList,
  deleteAttachment,
  deleteBoard,
  deleteCard,
  deleteChecklist,
  deleteChecklistItem,
  deleteComment,
  deleteCustomField,
  deleteLabel,
  downloadAttachment,
  findListByName,
  getAttachment,
  getBoard,
  getCard,
  getCardCustomFieldValues,
  getList,
  getMe,
  getMember,
  listAttachments,
  listBoardActions,
  listBoardCards,
  listBoardLabels,
  listBoardLists,
  listBoardMembers,
  listCardActivity,
  listCardChecklists,
  listCardMembers,
  listComments,
  listCustomFieldOptions,
  listCustomFields,
  listListCards,
  listMyBoards,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  listVoters,
  listWorkspaceBoards,
  moveAllCards,
  moveCard,
  moveListToBoard,
  newCard,
  newNotification,
  removeBoardMember,
  removeCardMember,
  removeLabelFromCard,
  removeVote,
  reopenBoard,
  searchBoards,
  searchCards,
  searchMembers,
  setCardCustomFieldValue,
  unarchiveCard,
  unarchiveList,
  updateBoard,
  updateCard,
  updateChecklist,
  updateChecklistItem,
  updateComment,
  updateLabel,
  updateList,
  voteOnCard
}
