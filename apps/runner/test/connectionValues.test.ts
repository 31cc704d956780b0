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

describe("ConnectionValues: named connections", () => {
  const trello = { key: "k", token: "t" }

  it("check: a named connection of the component passes; a missing one, or one of another component, is named (a workflow's are left to its check, at their places)", () => {
    const connections: ConnectionValues.ConnectionValues = new Map<string, Record<string, unknown>>([
      ["work", { component: "boardtool", ...trello }],
      ["site", { component: "sitebuilder", accessToken: "a" }],
      ["bare", trello]
    ])
    expect(Either.isRight(ConnectionValues.check(connections, [{ component: boardtool, connection: "work" }]))).toBe(true)
    const problems = (connection: string) =>
      Either.match(ConnectionValues.check(connections, [{ component: boardtool, connection }]), {
        onLeft: (problem) => problem.message,
        onRight: () => "(valid)"
      })
    expect(problems("home")).toBe(
      `there is no connection named "home": put {"home": {"component": "boardtool", "key": …, "token": …}} in the connections file (--connections FILE)`
    )
    expect(problems("site")).toBe(`the connection "site" is of sitebuilder, not boardtool`)
    expect(problems("bare")).toBe(`the connection "bare" does not say its component: give it "component": "boardtool"`)
    expect(problems("my work")).toBe(`"my work" is not a connection's name: a letter, then up to 63 letters, digits, _ or -`)
    // Named by a workflow (`at`), they are its check's to say, with their places.
    expect(Either.isRight(ConnectionValues.check(connections, [{ component: boardtool, connection: "home", at: ["tasks[1]"] }]))).toBe(true)
    expect(ConnectionValues.namedProblem(connections, { component: boardtool, connection: "site", at: ["tasks[1]"] })).toBe(
      `the connection "site" is of sitebuilder, not boardtool`
    )
    // A named connection's own fields are checked as a default's are, named by it.
    const partial = ConnectionValues.check(new Map([["work", { component: "boardtool", key: "k" }]]), [{ component: boardtool, connection: "work" }])
    expect(Either.isLeft(partial) && partial.left.message).toContain(`connection work: token: `)
  })

  it("checkEntries: an entry's component must be one the runner knows, under a component's name its own, and its name one a step can give", () => {
    const problems = (entries: Record<string, Record<string, unknown>>) =>
      Either.match(ConnectionValues.checkEntries("c.json", new Map(Object.entries(entries)), [boardtool, optional]), {
        onLeft: (problem) => problem.message.split("\n"),
        onRight: () => []
      })
    // Today's form, and named entries of known components, pass.
    expect(problems({ boardtool: trello, work: { component: "boardtool", ...trello }, "home_2-b": { component: "boardtool" } })).toEqual([])
    expect(problems({
      work: { component: "trelo", ...trello },
      boardtool: { component: "optional" },
      "my work": { component: "boardtool" },
      other: { component: 3 }
    })).toEqual([
      `the connections file c.json: work.component: "trelo" is not a component; there are boardtool, optional`,
      `the connections file c.json: boardtool.component: the entry under "boardtool" is boardtool's default connection; name the optional connection otherwise`,
      `the connections file c.json: my work: a connection's name is a letter, then up to 63 letters, digits, _ or -`,
      `the connections file c.json: other.component: 3 is not a component; there are boardtool, optional`
    ])
  })

  it("baseUrlOf reads the named connection's base URL", () => {
    const connections = new Map<string, Record<string, unknown>>([
      ["boardtool", trello],
      ["work", { component: "boardtool", ...trello, baseUrl: "http://127.0.0.1:9/1" }]
    ])
    expect(ConnectionValues.baseUrlOf(connections, boardtool)).toBe(boardtool.connection.client.defaultBaseUrl)
    expect(ConnectionValues.baseUrlOf(connections, boardtool, "work")).toBe("http://127.0.0.1:9/1")
  })
})
