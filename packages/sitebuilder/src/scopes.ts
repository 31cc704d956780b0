/** The OAuth2 scopes of Webflow's endpoints we call (the spec's `security` of each). */
export const sitesRead = "sites:read"
export const ecommerceRead = "ecommerce:read"
export const ecommerceWrite = "ecommerce:write"
export const cmsRead = "cms:read"
export const cmsWrite = "cms:write"
export const sitesWrite = "sites:write"
export const formsRead = "forms:read"
export const pagesRead = "pages:read"
