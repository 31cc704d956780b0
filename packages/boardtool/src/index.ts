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
import { connection } from "./connection.js"
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
    createBoard,
    createCard,
    getCard,
    listBoardActions,
    archiveAllCards,
    addAttachment,
    downloadAttachment,
    // lists, boards, search
    ...listsAndBoards
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
