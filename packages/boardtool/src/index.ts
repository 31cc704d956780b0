/**
 * @x/boardtool: the board component, `boardtool/v1` (Trello REST API 1).
 */
import { Client, Component } from "@x/core"
import * as actions from "./actions/index.js"
import { connection } from "./connection.js"
import * as triggers from "./triggers/index.js"

export const boardtool = Component.make({
  name: "boardtool",
  version: 1,
  title: "Board Tool",
  description: "Project management with boards, lists and cards.",
  category: "Productivity and Collaboration",
  connection,
  actions: Object.values(actions),
  triggers: Object.values(triggers),
  customAction: true
})

/**
 * The typed clients of boardtool: `Boardtool.client(connection)` (Promise) and `Boardtool.effect(connection)`
 * (Effect), one method per action.
 */
export const Boardtool = Client.make(boardtool)

// The records the actions output, as Schemas.
export {
  Activity, AttachmentAdded, BoardAction, CardEvent, CardMoved, CardUpdated, CheckItemCompleted, CommentAdded, LabelAddedToCard, MemberAddedToCard,
  NewBoard, NewLabel, NewList, TrelloAction
} from "./api/activity.js"
export { Attachment } from "./api/attachments.js"
export { Board, Workspace } from "./api/boards.js"
export { Card, CardDetails, CardLabel, CardMember, CardWithNested, DueCard } from "./api/cards.js"
export { CheckItem, Checklist } from "./api/checklists.js"
export { Comment, Reaction } from "./api/comments.js"
export { CustomField, CustomFieldItem, FieldOption } from "./api/customFields.js"
export { Label } from "./api/labels.js"
export { List } from "./api/lists.js"
export { Member } from "./api/members.js"
export { Notification } from "./api/notifications.js"
export { FoundCard } from "./api/search.js"

export * from "./actions/index.js"
export { connection }
export * from "./triggers/index.js"
