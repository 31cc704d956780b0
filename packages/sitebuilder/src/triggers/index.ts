/**
 * The component's triggers, one line each: `index.ts` lists them all in the component (by name) and
 * exports them from the package. A new trigger is its file in this folder and its line below.
 */
export { collectionItemChanged } from "./collectionItemChanged.js"
export { collectionItemCreated } from "./collectionItemCreated.js"
export { collectionItemDeleted } from "./collectionItemDeleted.js"
export { collectionItemPublished } from "./collectionItemPublished.js"
export { collectionItemUnpublished } from "./collectionItemUnpublished.js"
export { commentCreated } from "./commentCreated.js"
export { formSubmitted } from "./formSubmitted.js"
export { inventoryChanged } from "./inventoryChanged.js"
export { newOrder } from "./newOrder.js"
export { orderChanged } from "./orderChanged.js"
export { pageCreated } from "./pageCreated.js"
export { pageDeleted } from "./pageDeleted.js"
export { pageMetadataUpdated } from "./pageMetadataUpdated.js"
export { sitePublished } from "./sitePublished.js"
