/** The action under test: a Trello-like getCard, with auth, rate limiter and retry policy in place. */
import { Action, Auth, Component, Connection, Property, ProviderClient } from "@x/core"
import * as Schema from "effect/Schema"

const Card = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  desc: Schema.String,
  idBoard: Schema.String,
  idList: Schema.String
})

const getCard = Action.make({
  name: "getCard",
  title: "Get Card",
  description: "Reads a card.",
  props: {
    id: Property.string({ title: "Card", required: true, pattern: /^[0-9a-fA-F]{24}$/, patternMessage: "must be 24 hex digits" })
  },
  output: Card,
  run: (params, { client }) => client.json({ method: "GET", path: ProviderClient.path`/cards/${params.id}` }, Card)
})

export const benchComponent = Component.make({
  name: "benchboard",
  version: 1,
  title: "Bench board",
  description: "A Trello-like component for the benchmark.",
  category: "Benchmark",
  connection: Connection.custom({
    title: "Key and token",
    props: {
      key: Property.secret({ title: "Key", required: true }),
      token: Property.secret({ title: "Token", required: true })
    },
    client: { defaultBaseUrl: "https://api.trello.com/1" },
    // Sized so that it is consulted on every call without ever making one wait.
    rateLimits: [{ scope: "token", limit: 50_000, interval: "1 second" }, { scope: "key", limit: 50_000, interval: "1 second" }],
    authenticate: (values) => ({
      credentials: Auth.headers({
        Authorization: `OAuth oauth_consumer_key="${Auth.reveal(values.key)}", oauth_token="${Auth.reveal(values.token)}"`
      }),
      rateLimitKeys: { token: values.token, key: values.key }
    })
  }),
  actions: [getCard]
})
