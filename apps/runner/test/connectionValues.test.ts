/** Connection values as the runner checks them up front: the way @x/core opens them, case by case. */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { describe, expect, it } from "@effect/vitest"
import { boardtool } from "@x/boardtool"
import { Auth, Component, Connection, Connections, Property } from "@x/core"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as ConnectionValues from "../src/components/ConnectionValues.js"

// A component whose connection needs no field: core opens it without values.
const optional = Component.make({
  name: "optional",
  version: 1,
  title: "Optional",
  description: "A connection of optional fields only",
  category: "test",
  connection: Connection.custom({
    title: "Optional key",
    props: { key: Property.secret({ title: "Key" }) },
    client: { defaultBaseUrl: "https://optional.example/api" },
    authenticate: () => ({ credentials: Auth.headers({}) })
  }),
  actions: [],
  customAction: true
})

const coreOpens = (component: Component.Component, values: unknown) =>
  Effect.runPromiseExit(Connections.open(component, values).pipe(Effect.provide(FetchHttpClient.layer)))

const cases: ReadonlyArray<[string, Component.Component, Readonly<Record<string, unknown>> | undefined]> = [
  ["boardtool, none given", boardtool, undefined],
  ["boardtool, key and token", boardtool, { key: "k", token: "t" }],
  ["boardtool, a base URL", boardtool, { key: "k", token: "t", baseUrl: "http://127.0.0.1:9/1" }],
  ["boardtool, an empty base URL", boardtool, { key: "k", token: "t", baseUrl: "" }],
  ["boardtool, a base URL that is not one", boardtool, { key: "k", token: "t", baseUrl: "ftp://x" }],
  ["optional fields only, none given", optional, undefined],
  ["optional fields only, a base URL", optional, { baseUrl: "http://127.0.0.1:9/api" }]
]

describe("ConnectionValues", () => {
  it("check accepts exactly the values core's Connections.open accepts", async () => {
    for (const [name, component, values] of cases) {
      const connections: ConnectionValues.ConnectionValues = new Map(values === undefined ? [] : [[component.name, values]])
      const opened = await coreOpens(component, values)
      expect(Either.isRight(ConnectionValues.check(connections, [component])), name).toBe(Exit.isSuccess(opened))
    }
  })

  it("baseUrlOf is the base URL core opens the connection with (its decoded baseUrl, else the default)", async () => {
    for (const [name, component, values] of cases) {
      const opened = await coreOpens(component, values)
      if (Exit.isFailure(opened)) continue // refused by check before any base URL matters
      const connections: ConnectionValues.ConnectionValues = new Map(values === undefined ? [] : [[component.name, values]])
      const used = (opened.value.values as { readonly baseUrl?: string }).baseUrl ?? component.connection.client.defaultBaseUrl
      expect(ConnectionValues.baseUrlOf(connections, component), name).toBe(used)
    }
  })

  it("no connection for a component that needs one: the message names its fields and where to put them", () => {
    const result = ConnectionValues.check(new Map(), [boardtool])
    expect(Either.isLeft(result) && result.left.message).toContain(`put {"boardtool": {"key": …, "token": …}} in a connections file`)
    expect(Either.isLeft(result) && result.left.message).toContain("XRUNNER_BOARDTOOL_KEY and XRUNNER_BOARDTOOL_TOKEN")
  })
})
