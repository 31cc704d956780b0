/**
 * The browser-agent connection: an API key, sent in a header whose name is part of the
 * connection (Browser Use's is `X-Browser-Use-API-Key`), and the secret that signs the
 * webhook deliveries set up in the dashboard (needed by the task-status trigger only).
 */
import { Connection, ConnectionTest, Property } from "@x/core"
import * as Schema from "effect/Schema"
import { errorMessage } from "./api/shared.js"

export const connection = Connection.apiKeyHeader({
  title: "Browser Use API key",
  description: "An API key from https://cloud.browser-use.com/settings.",
  defaultHeader: "X-Browser-Use-API-Key",
  props: {
    webhookSecret: Property.secret({
      title: "Webhook signing secret",
      description: "The secret of the webhook set up at https://cloud.browser-use.com/settings?tab=webhooks: verifies its deliveries.",
      minLength: 1
    })
  },
  client: { defaultBaseUrl: "https://api.browser-use.com/api/v3", errorMessage },
  // The key's account (AccountView): every valid key may read it, and it costs nothing.
  test: ConnectionTest.make({
    request: { method: "GET", path: "/billing/account" },
    answer: Schema.Struct({ projectId: Schema.String, name: Schema.optional(Schema.NullOr(Schema.String)) }),
    identify: (account) => ({ account: account.name ?? `project ${account.projectId}` }),
    whenRefused: "create a new API key at https://cloud.browser-use.com/settings and give it as the connection's value"
  })
})
