/**
 * The board connection: the user's Trello API key and token (both secret), the app's secret
 * that signs webhook deliveries, and an optional base URL (a proxy, or the simulator).
 */
import { Auth, Connection, ConnectionTest, ConnectorError, Property } from "@x/core"
import { Me } from "./api/members.js"

export const connection = Connection.custom({
  title: "Trello key and token",
  description: "An API key and a token from https://trello.com/power-ups/admin (the secret verifies webhook deliveries).",
  props: {
    key: Property.secret({ title: "Key", required: true, minLength: 1 }),
    token: Property.secret({ title: "Token", required: true, minLength: 1 }),
    secret: Property.secret({
      title: "Secret",
      description: "The app's secret, which signs webhook deliveries: without it the triggers refuse every delivery, unless unsigned ones are explicitly allowed.",
      minLength: 1
    })
  },
  client: {
    defaultBaseUrl: "https://api.trello.com/1",
    // "unauthorized permission requested" (or "unauthorized card permission requested", for one
    // card or its attachment) comes with a 401, but the token is valid: it lacks a scope or access.
    refineError: (error) =>
      error._tag === "AuthenticationFailed" && /^unauthorized (?:\w+ )?permission requested$/.test(error.message)
        ? new ConnectorError.PermissionDenied({ ...error, message: error.message })
        : error
  },
  // Trello's published limits.
  rateLimits: [
    { scope: "token", limit: 100, interval: "10 seconds" },
    { scope: "key", limit: 300, interval: "10 seconds" }
  ],
  // The token's member: any valid key and token may read it.
  test: ConnectionTest.make({
    request: { method: "GET", path: "/members/me", query: { fields: "username,fullName" } },
    answer: Me,
    identify: (me) => ({ account: me.fullName === "" ? `@${me.username}` : `${me.fullName} (@${me.username})` }),
    whenRefused:
      "check the key at https://trello.com/power-ups/admin (your Power-Up's API key) and create a new token with the Token link beside it"
  }),
  // The header keeps the credentials out of URLs and access logs.
  authenticate: ({ key, token }) => ({
    credentials: Auth.headers({
      Authorization: `OAuth oauth_consumer_key="${Auth.reveal(key)}", oauth_token="${Auth.reveal(token)}"`
    }),
    rateLimitKeys: { token, key }
  })
})
