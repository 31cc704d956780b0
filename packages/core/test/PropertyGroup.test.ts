/**
 * Property groups: fields loaded through the connection (cached per connection and dependency
 * values for the group's declared time), and a step's group value decoded against them before
 * anything else is sent; the typed clients do the same, and actions without groups load nothing.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/TestClock"
import { Action, Client, Component, Executor, Property, PropertyGroup, ProviderRequest } from "../src/index.js"
import { connected, connectionValues, fakeHttp, fixtureConnection, type Handler } from "./support.js"

const TABLE = "tbl1"
const Field = Schema.Struct({ key: Schema.String, type: Schema.Literal("text", "number", "flag"), required: Schema.Boolean })
const Table = Schema.Struct({ fields: Schema.Array(Field) })
const tableFields = [
  { key: "title", type: "text", required: true },
  { key: "price", type: "number", required: false },
  { key: "inStock", type: "flag", required: false }
] as const

let loads = 0
const fields = PropertyGroup.make({
  title: "Fields",
  required: true,
  dependsOn: ["tableId"],
  cacheFor: "30 seconds",
  load: ({ client, params }) => {
    loads++
    return Effect.map(client.json({ method: "GET", path: ProviderRequest.path`/tables/${String(params["tableId"])}` }, Table), (table) =>
      Object.fromEntries(table.fields.map((field) => [
        field.key,
        field.type === "text"
          ? Property.string({ title: field.key, required: field.required, maxLength: 20 })
          : field.type === "number"
          ? Property.number({ title: field.key, required: field.required, minimum: 0 })
          : Property.boolean({ title: field.key, required: field.required })
      ])))
  }
})

const Created = Schema.Struct({ id: Schema.String, fields: Schema.Record({ key: Schema.String, value: Schema.Unknown }) })
const createRecord = Action.make({
  name: "createRecord",
  title: "Create Record",
  description: "Creates a record with the table's fields.",
  impact: "write",
  idempotent: false,
  props: { tableId: Property.string({ title: "Table", required: true, minLength: 1 }), fields },
  output: Created,
  run: ({ fields, tableId }, { client }) =>
    client.json({ method: "POST", path: ProviderRequest.path`/tables/${tableId}/records`, body: ProviderRequest.jsonBody({ fields }) }, Created)
})
const ping = Action.make({
  name: "ping",
  title: "Ping",
  description: "No groups.",
  impact: "read",
  props: { tableId: Property.string({ title: "Table" }) },
  output: Schema.Struct({ ok: Schema.Boolean }),
  run: (_, { client }) => client.json({ method: "GET", path: "/ping" }, Schema.Struct({ ok: Schema.Boolean }))
})
const tables = Component.make({
  name: "tables",
  version: 1,
  title: "Tables",
  description: "A component with a property group.",
  category: "Testing",
  connection: fixtureConnection,
  actions: [createRecord, ping]
})
const executor = Executor.make([tables])

/** The provider: the table's fields, records created with what they were sent, a ping. */
const provider: Handler = (request) => {
  const url = new URL(request.url)
  if (request.method === "GET" && url.pathname === "/1/tables/tbl1") return { status: 200, body: { fields: tableFields } }
  if (request.method === "GET" && url.pathname.startsWith("/1/tables/")) return { status: 404, body: { message: "no such table" } }
  if (request.method === "POST") return { status: 200, body: { id: "r1", ...JSON.parse(request.body!) } }
  return { status: 200, body: { ok: true } }
}

const step = (action: string, parameters: Record<string, unknown>) => ({ label: "A step", name: "s1", type: `tables/v1/${action}`, parameters })

/**
 * Runs over an in-memory provider, with what it was sent; `layer` opens the connection once,
 * for the whole test (`Effect.provide(test, layer)`).
 */
const setup = (handler: Handler = provider) => {
  const http = fakeHttp(handler)
  const layer = connected({ tables: connectionValues }, http.layer)
  const run = (action: string, parameters: Record<string, unknown>) => executor.run(step(action, parameters))
  const fieldsOf = (params: Record<string, unknown>, property = "fields", type = "tables/v1/createRecord") =>
    executor.fields(type, property, params)
  return { run, fieldsOf, sent: http.sent, layer }
}
/** The test with a setup whose connection is opened once for all of it. */
const withSetup = <A, E>(test: (t: ReturnType<typeof setup>) => Effect.Effect<A, E, import("../src/index.js").Connections.Connections>) =>
  Effect.suspend(() => {
    const t = setup()
    return Effect.provide(test(t), t.layer)
  })
const sentLines = (sent: ReadonlyArray<{ method: string; url: string }>) => sent.map((r) => `${r.method} ${new URL(r.url).pathname}`)

describe("PropertyGroup: described", () => {
  it("is a GROUP with what it depends on, in the component's description", () => {
    expect(Property.describe(fields)).toEqual({ kind: "GROUP", title: "Fields", required: true, dependsOn: ["tableId"] })
    const described = Component.describe(tables).actions.find((a) => a.name === "createRecord")!
    expect(described.props["fields"]).toEqual({ kind: "GROUP", title: "Fields", required: true, dependsOn: ["tableId"] })
    expect(createRecord.groups?.map(([name]) => name)).toEqual(["fields"])
    expect(ping.groups).toBeUndefined()
  })

  it.effect("executor.fields loads and describes the fields; a missing dependency or a non-group is an InvalidInput", () =>
    withSetup(({ fieldsOf, sent }) =>
      Effect.gen(function*() {
        expect(yield* fieldsOf({ tableId: TABLE })).toEqual({
          title: { kind: "STRING", title: "title", required: true, maxLength: 20 },
          price: { kind: "NUMBER", title: "price", required: false, minimum: 0 },
          inStock: { kind: "BOOLEAN", title: "inStock", required: false }
        })
        const missing = yield* Effect.flip(fieldsOf({}))
        expect(missing.message).toBe("fields: needs tableId to load its fields")
        const notGroup = yield* Effect.flip(fieldsOf({ tableId: TABLE }, "tableId"))
        expect(notGroup.message).toBe("tableId: tables/v1/createRecord has no property group \"tableId\"; available: fields")
        const badDependency = yield* Effect.flip(fieldsOf({ tableId: 5 }))
        expect(badDependency._tag).toBe("InvalidInput")
        expect(sentLines(sent)).toEqual(["GET /1/tables/tbl1"])
      })
    ))
})

describe("PropertyGroup: decoding a step's group value", () => {
  it.effect("decodes the value against the loaded fields (a numeric string becomes a number) and sends it", () =>
    withSetup(({ run, sent }) =>
      Effect.gen(function*() {
        const output = yield* run("createRecord", { tableId: TABLE, fields: { title: "Towel", price: "42.5", inStock: true } })
        expect(output).toEqual({ id: "r1", fields: { title: "Towel", price: 42.5, inStock: true } })
        expect(sentLines(sent)).toEqual(["GET /1/tables/tbl1", "POST /1/tables/tbl1/records"])
        expect(JSON.parse(sent[1]!.body!)).toEqual({ fields: { title: "Towel", price: 42.5, inStock: true } })
        // A null for an optional field is kept (it clears the field), not dropped as "not given".
        yield* run("createRecord", { tableId: TABLE, fields: { title: "Towel", price: null } })
        expect(JSON.parse(sent[2]!.body!)).toEqual({ fields: { title: "Towel", price: null } })
      })
    ))

  it.effect("an unknown field, a wrong type and a missing required field: one InvalidInput naming each, and nothing sent but the load", () =>
    withSetup(({ run, sent }) =>
      Effect.gen(function*() {
        const error = yield* Effect.flip(run("createRecord", { tableId: TABLE, fields: { price: "cheap", inStock: "maybe", colour: "red" } }))
        expect(error._tag).toBe("InvalidInput")
        expect(error._tag === "InvalidInput" && error.issues).toEqual([
          { path: "fields.colour", message: "is not a field of fields (its fields: title, price, inStock)" },
          { path: "fields.title", message: "is required" },
          { path: "fields.price", message: "must be a number" },
          { path: "fields.inStock", message: "must be a boolean" }
        ])
        expect(error.message).toBe(
          "tables/v1/createRecord: fields.colour: is not a field of fields (its fields: title, price, inStock); fields.title: is required; " +
            "fields.price: must be a number; fields.inStock: must be a boolean"
        )
        expect(sentLines(sent)).toEqual(["GET /1/tables/tbl1"])
      })
    ))

  it.effect("a \"__proto__\" key in the group's JSON is refused as an unknown field, whichever way the step is decoded; nothing is sent", () =>
    withSetup(({ run, sent }) =>
      Effect.gen(function*() {
        // JSON.parse makes "__proto__" an own key, as a workflow file or a request body holds it.
        const fieldsWith = JSON.parse(`{"title": "Towel", "__proto__": {"price": 1}}`) as Record<string, unknown>
        const error = yield* Effect.flip(run("createRecord", { tableId: TABLE, fields: fieldsWith }))
        expect(error._tag === "InvalidInput" && error.issues).toEqual([
          { path: "fields.__proto__", message: "is not a field of fields (its fields: title, price, inStock)" }
        ])
        // A static parameter that Schema transforms (an integer given as text) takes the group's value
        // through Schema too: the key is still there for the group's decoding.
        const statics = Property.decoder({ count: Property.integer({ title: "Count" }), fields }, "t")(
          JSON.parse(`{"count": "5", "fields": {"title": "Towel", "__proto__": {"price": 1}}}`)
        )
        expect(statics._tag === "Right" && Object.keys(statics.right.fields)).toEqual(["title", "__proto__"])
        // An OBJECT property with declared fields refuses it the same way.
        const declared = Property.decoder({ box: Property.object({ title: "Box", properties: { size: Property.integer({ title: "Size" }) } }) }, "t")
        const boxed = declared(JSON.parse(`{"box": {"size": 1, "__proto__": {"size": 2}}}`))
        expect(boxed._tag === "Left" && boxed.left.issues).toEqual([{ path: "box.__proto__", message: "is not a known parameter" }])
        expect(sentLines(sent)).toEqual(["GET /1/tables/tbl1"])
      })
    ))

  it.effect("the static parameters are decoded first: a bad one fails before the fields are loaded", () =>
    withSetup(({ run, sent }) =>
      Effect.gen(function*() {
        const error = yield* Effect.flip(run("createRecord", { tableId: "", fields: [] }))
        expect(error.message).toBe("step \"s1\" (tables/v1/createRecord): tableId: must not be empty; fields: must be an object")
        expect(sent).toEqual([])
      })
    ))

  it.effect("loads once per connection and dependency values while fresh (TestClock), again after cacheFor", () =>
    withSetup(({ run, sent }) =>
      Effect.gen(function*() {
        const create = run("createRecord", { tableId: TABLE, fields: { title: "A" } })
        // Two at once wait for the same load.
        yield* Effect.all([create, create], { concurrency: 2 })
        yield* TestClock.adjust("29 seconds")
        yield* create
        expect(sentLines(sent).filter((line) => line.startsWith("GET"))).toEqual(["GET /1/tables/tbl1"])
        yield* TestClock.adjust("2 seconds")
        yield* create
        expect(sentLines(sent).filter((line) => line.startsWith("GET"))).toEqual(["GET /1/tables/tbl1", "GET /1/tables/tbl1"])
        // Another connection loads its own.
        const other = setup()
        yield* Effect.provide(other.run("createRecord", { tableId: TABLE, fields: { title: "B" } }), other.layer)
        expect(sentLines(other.sent)).toEqual(["GET /1/tables/tbl1", "POST /1/tables/tbl1/records"])
      })
    ))

  it.effect("a failed load is the provider's typed error, saying what it was loading; it is not kept", () =>
    withSetup(({ run, sent }) =>
      Effect.gen(function*() {
        const create = run("createRecord", { tableId: "nope", fields: { title: "A" } })
        const error = yield* Effect.flip(create)
        expect(error._tag).toBe("NotFound")
        expect(error.message).toMatch(/^loading the fields of fields: .*no such table/)
        yield* Effect.flip(create)
        expect(sentLines(sent)).toEqual(["GET /1/tables/nope", "GET /1/tables/nope"])
      })
    ))

  it.effect("an action without groups never loads fields", () =>
    withSetup(({ run, sent }) =>
      Effect.gen(function*() {
        const before = loads
        expect(yield* run("ping", { tableId: TABLE })).toEqual({ ok: true })
        expect(loads).toBe(before)
        expect(sentLines(sent)).toEqual(["GET /1/ping"])
      })
    ))
})

describe("PropertyGroup: the typed client", () => {
  it("decodes the group the same way: bad fields reject before the record is created", async () => {
    const http = fakeHttp(provider)
    const client = Client.make(tables).client(connectionValues, { httpClient: http.layer })
    const error = await client.createRecord({ tableId: TABLE, fields: { title: 7 } }).catch((e: unknown) => e)
    expect(error).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "fields.title", message: "must be a string" }] })
    expect(await client.createRecord({ tableId: TABLE, fields: { title: "Ok", price: 3 } })).toEqual({ id: "r1", fields: { title: "Ok", price: 3 } })
    expect(sentLines(http.sent)).toEqual(["GET /1/tables/tbl1", "POST /1/tables/tbl1/records"])
    await client.close()
  })
})

