/**
 * The browser-agent connection: an API key, sent in a header whose name is part of the
 * connection (Browser Use's is `X-Browser-Use-API-Key`).
 */
import { Connection } from "@x/core"
import { errorMessage } from "./api.js"

export const connection = Connection.apiKeyHeader({
  title: "Browser Use API key",
  description: "An API key from https://cloud.browser-use.com/settings.",
  defaultHeader: "X-Browser-Use-API-Key",
  client: { defaultBaseUrl: "https://api.browser-use.com/api/v3", errorMessage }
})
