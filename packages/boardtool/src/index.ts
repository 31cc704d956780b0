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
    // cards and votes
    updateCard, deleteCard, moveCard, archiveCard, unarchiveCard, copyCard, listListCards, listBoardCards, listCardActivity,
    voteOnCard, removeVote, listVoters,
    // comments
    addComment, listComments, updateComment, addReaction, deleteComment,
    // checklists
    createChecklist, addChecklistItem, updateChecklistItem, listCardChecklists, updateChecklist, deleteChecklistItem, deleteChecklist,
    // labels
    listBoardLabels, createLabel, updateLabel, addLabelToCard, removeLabelFromCard, deleteLabel,
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
export { CardDetails, CardLabel, CardMember, CardWithNested, CustomFieldItem } from "./api/cards.js"
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
