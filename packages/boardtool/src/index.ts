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
import { cardDueSoon } from "./triggers/cardDueSoon.js"
import { newCard } from "./triggers/newCard.js"

export const boardtool = Component.make({
  name: "boardtool",
  version: 1,
  title: "Board Tool",
  description: "Project management with boards, lists and cards.",
  category: "Productivity and Collaboration",
  connection,
  actions: [createBoard, createCard, getCard, listBoardActions, archiveAllCards, addAttachment, downloadAttachment],
  triggers: [newCard, cardDueSoon],
  customAction: true
})

/**
 * The typed clients of boardtool: `Boardtool.client(connection)` (Promise) and `Boardtool.effect(connection)`
 * (Effect), one method per action.
 */
export const Boardtool = Client.make(boardtool)

export { Attachment, BoardAction, Card, DueCard } from "./api.js"
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
