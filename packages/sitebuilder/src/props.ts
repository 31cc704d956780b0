/** The properties the actions share: Webflow ids, and the site. */
import { Property } from "@x/core"
import { webflowIdPattern } from "./ids.js"
import * as Options from "./options.js"

export const webflowId = Property.patterned(webflowIdPattern, "must be a Webflow id (24 hexadecimal digits)")

/** The site. */
export const siteId = <const R extends boolean>(required: R) => webflowId({ title: "Site", required, dynamicOptions: Options.sites })

/** A collection of the site. */
export const collectionId = webflowId({ title: "Collection", required: true, dynamicOptions: Options.collections })
