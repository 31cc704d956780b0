/**
 * Webflow's id of a site, collection or item (the spec's "objectid"): 24 hexadecimal digits.
 * A module of its own, with no imports, so that the simulator (`@x/sitebuilder/testing`)
 * checks ids without loading the component.
 */
export const webflowIdPattern = /^[0-9a-fA-F]{24}$/
