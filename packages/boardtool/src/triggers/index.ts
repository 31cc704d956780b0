/**
 * The component's triggers, one line each: `index.ts` lists them all in the component (by name) and
 * exports them from the package. A new trigger is its file in this folder and its line below.
 */
export { attachmentAdded } from "./attachmentAdded.js"
export { boardActivity } from "./boardActivity.js"
export { cardArchived } from "./cardArchived.js"
export { cardDueSoon } from "./cardDueSoon.js"
export { cardMoved } from "./cardMoved.js"
export { cardUpdated } from "./cardUpdated.js"
export { checklistItemCompleted } from "./checklistItemCompleted.js"
export { commentAdded } from "./commentAdded.js"
export { labelAddedToCard } from "./labelAddedToCard.js"
export { memberAddedToCard } from "./memberAddedToCard.js"
export { newBoardInWorkspace } from "./newBoardInWorkspace.js"
export { newCard } from "./newCard.js"
export { newLabel } from "./newLabel.js"
export { newList } from "./newList.js"
export { newNotification } from "./newNotification.js"
