/**
 * The browser-agent connection: an API key, sent in a header whose name is part of the
 * connection (Browser Use's is `X-Browser-Use-API-Key`).
 */
import { Auth, Connection, Property } from "@x/core"
import { errorMessage } from "./api.js"

export const connection = Connection.custom({
  title: "Browser Use API key",
  description: "An API key from https://cloud.browser-use.com/settings.",
  props: {
    key: Property.string({
      title: "Key",
      description: "The header the API key goes in.",
      required: true,
      defaultValue: "X-Browser-Use-API-Key",
      pattern: /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/,
      patternMessage: "must be an HTTP header name"
    }),
    value: Property.secret({ title: "API Key", required: true, minLength: 1 })
  },
  client: { defaultBaseUrl: "https://api.browser-use.com/api/v3", errorMessage },
  authenticate: ({ key, value }) => ({ credentials: Auth.headers({ [key]: value }) })
})
