/** The properties the actions share: Webflow ids, and the site. */
import { Property } from "@x/core"
import * as Options from "./options.js"

/** Webflow's id of a site, collection or item (the spec's "objectid"): 24 hexadecimal digits. */
/** A Webflow id: 24 hexadecimal digits. */
export const webflowIdPattern = /^[0-9a-fA-F]{24}$/

export const webflowId = Property.patterned(webflowIdPattern, "must be a Webflow id (24 hexadecimal digits)")

/** The site. */
export const siteId = <const R extends boolean>(required: R) => webflowId({ title: "Site", required, dynamicOptions: Options.sites })
