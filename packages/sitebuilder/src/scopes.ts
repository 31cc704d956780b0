/** The OAuth2 scopes of Webflow's endpoints we call (the spec's `security` of each). */
export const sitesRead = "sites:read"
export const ecommerceRead = "ecommerce:read"
export const ecommerceWrite = "ecommerce:write"
export const cmsRead = "cms:read"
export const cmsWrite = "cms:write"
export const assetsRead = "assets:read"
export const assetsWrite = "assets:write"
