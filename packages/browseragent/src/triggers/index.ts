/**
 * The component's triggers, one line each: `index.ts` lists them all in the component (by name) and
 * exports them from the package. A new trigger is its file in this folder and its line below.
 */
export { sessionFinished } from "./sessionFinished.js"
export { taskStatusChanged } from "./taskStatusChanged.js"
