import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { Choice, Component, Property } from "../src/index.js"
import { createThing, everyKind, fixture } from "./support.js"

const decode = Property.decoder(everyKind, "createThing")

const issuesOf = (input: unknown) => {
  const result = decode(input)
  if (Either.isRight(result)) throw new Error("expected a failure")
  expect(result.left._tag).toBe("InvalidInput")
  return result.left.issues
}

describe("Property", () => {
  it("decodes every kind, accepting interpolated strings for booleans and integers", () => {
    const result = decode({
      text: "hello",
      flag: "true",
      count: "42",
      when: "2026-11-21T10:00:00",
      meta: { a: 1 },
      tags: ["x", "y"],
      color: "red"
    })
    expect(result).toEqual(Either.right({
      text: "hello",
      flag: true,
      count: 42,
      when: "2026-11-21T10:00:00",
      meta: { a: 1 },
      tags: ["x", "y"],
      color: "red"
    }))
  })

  it("treats null as absent for optional properties", () => {
    expect(decode({ text: "a", flag: null })).toEqual(Either.right({ text: "a" }))
  })

  it("reports every problem at once, each with its path, including unknown parameters", () => {
    const issues = issuesOf({
      flag: "yes",
      count: 101,
      when: "2026-02-30T10:00:00Z",
      meta: [1],
      tags: ["ok", 7],
      color: "green",
      colour: "red"
    })
    expect(issues).toEqual(expect.arrayContaining([
      { path: "text", message: "is required" },
      { path: "flag", message: "must be a boolean" },
      { path: "count", message: "must be at most 100" },
      { path: "when", message: "must be an ISO 8601 date-time, e.g. 2026-11-21T10:00:00Z" },
      { path: "meta", message: "must be an object" },
      { path: "tags[1]", message: "must be a string" },
      { path: "color", message: "must be one of \"red\", \"blue\"" },
      { path: "colour", message: "is not a known parameter" }
    ]))
    expect(issues).toHaveLength(8)
  })

  it("names the problems in the error's message", () => {
    const result = decode({ count: 1.5 })
    expect(Either.isLeft(result) && result.left.message).toBe(
      "createThing: text: is required; count: must be an integer"
    )
  })

  it("rejects parameters that are not an object", () => {
    expect(issuesOf([1, 2])).toEqual([{ path: "", message: "parameters must be an object" }])
  })

  it.each([
    ["2026-11-21", true],
    ["2026-11-21T10:00", true],
    ["2026-11-21T10:00:00", true],
    ["2026-11-21T10:00:00.123Z", true],
    ["2026-11-21T10:00:00+02:00", true],
    ["2026-11-21T10:00:00-0530", true],
    ["2026-11-21t10:00:00z", true],
    ["2026-13-01T00:00:00Z", false],
    ["2026-11-21T24:00:00Z", false],
    ["2026-11-21T10:60:00Z", false],
    ["21/11/2026", false],
    ["2026-11-21T10:00:00 UTC", false],
    ["", false]
  ])("DATE_TIME %s is %s", (value, valid) => {
    expect(Property.isIsoDateTime(value)).toBe(valid)
  })

  it("applies a default to a missing optional property", () => {
    const props = { size: Property.integer({ title: "Size", defaultValue: 10 }) }
    expect(Property.decoder(props, "t")({})).toEqual(Either.right({ size: 10 }))
  })

  it("decodes nested object properties with their paths", () => {
    const props = {
      address: Property.object({
        title: "Address",
        required: true,
        properties: { city: Property.string({ title: "City", required: true }), zip: Property.integer({ title: "Zip" }) }
      })
    }
    const result = Property.decoder(props, "t")({ address: { zip: "x" } })
    expect(Either.isLeft(result) && result.left.issues).toEqual([
      { path: "address.city", message: "is required" },
      { path: "address.zip", message: "must be an integer" }
    ])
  })

  it("decodes secrets as Redacted values that never print", () => {
    const props = { token: Property.secret({ title: "Token", required: true }) }
    const result = Property.decoder(props, "t")({ token: "s3cr3t-value" })
    if (Either.isLeft(result)) throw result.left
    expect(Redacted.value(result.right.token)).toBe("s3cr3t-value")
    expect(String(result.right.token)).not.toContain("s3cr3t")
    expect(JSON.stringify(result.right)).not.toContain("s3cr3t")
  })

  it("takes a secret already Redacted, and checks it like text", () => {
    const props = { token: Property.secret({ title: "Token", required: true, minLength: 8 }) }
    const decode = Property.decoder(props, "t")
    const result = decode({ token: Redacted.make("s3cr3t-value") })
    if (Either.isLeft(result)) throw result.left
    expect(Redacted.value(result.right.token)).toBe("s3cr3t-value")
    const short = decode({ token: Redacted.make("s3cr3t") })
    expect(Either.isLeft(short) && short.left.issues.map((i) => i.path)).toEqual(["token"])
    expect(Either.isLeft(short) && short.left.message).not.toContain("s3cr3t")
  })

  it("a secret given as something else than text is refused without quoting it, once", () => {
    const props = { token: Property.secret({ title: "Token", required: true }) }
    const decode = Property.decoder(props, "t")
    for (const given of [{ v: "OBJ-SECRET-PASS" }, 777777777, true]) {
      const result = decode({ token: given })
      if (Either.isRight(result)) throw new Error("decoded")
      expect(result.left.issues).toEqual([{ path: "token", message: "must be a string" }])
      expect(result.left.message).not.toMatch(/OBJ-SECRET-PASS|777777777|true/)
    }
  })

  it("describes a component as JSON: kinds, required flags, options, dynamic options, output schema", () => {
    const description = JSON.parse(JSON.stringify(Component.describe(fixture)))
    expect(description).toMatchObject({
      type: "fixture/v1",
      category: "Testing",
      customAction: true,
      connection: {
        kind: "CUSTOM",
        props: {
          key: { kind: "STRING", title: "Key", required: true, secret: true },
          baseUrl: { kind: "STRING", required: false }
        },
        defaultBaseUrl: "https://api.fixture.test/1",
        rateLimits: [{ scope: "token", limit: 100, intervalMillis: 10_000 }]
      }
    })
    const create = description.actions.find((a: { name: string }) => a.name === createThing.name)
    expect(create.props).toEqual({
      text: { kind: "STRING", title: "Text", required: true, minLength: 1, maxLength: 10 },
      flag: { kind: "BOOLEAN", title: "Flag", required: false },
      count: { kind: "INTEGER", title: "Count", required: false, minimum: 0, maximum: 100 },
      when: { kind: "DATE_TIME", title: "When", required: false, format: "date-time" },
      meta: { kind: "OBJECT", title: "Meta", required: false },
      tags: {
        kind: "ARRAY",
        title: "Tags",
        required: false,
        items: { kind: "STRING", title: "Tag", required: false }
      },
      color: {
        kind: "STRING",
        title: "Color",
        required: false,
        choices: [{ label: "Red", value: "red" }, { label: "Blue", value: "blue" }]
      },
      listId: { kind: "STRING", title: "List", required: false, dynamicOptions: { dependsOn: ["boardId"] } },
      boardId: { kind: "STRING", title: "Board", required: false }
    })
    expect(create.output).toMatchObject({
      type: "object",
      required: ["id", "name", "count"],
      properties: { id: { type: "string" }, name: { type: "string" }, count: { type: "number" } }
    })
    expect(description.actions.map((a: { name: string }) => a.name)).toEqual(["createThing", "getThing", "customAction"])
  })
})

describe("Property.decoder fast path", () => {
  const viaSchema = (input: unknown) =>
    Schema.decodeUnknownEither(Property.struct(everyKind), { errors: "all", onExcessProperty: "error" })(input)
  const props = {
    ...everyKind,
    size: Property.integer({ title: "Size", defaultValue: 10 }),
    ids: Property.array({ title: "Ids", items: Property.string({ title: "Id", pattern: /^[a-f]+$/ }), maxItems: 2 })
  }
  const decodeAll = Property.decoder(props, "t")
  const viaSchemaAll = Schema.decodeUnknownEither(Property.struct(props), { errors: "all", onExcessProperty: "error" })

  it.each([
    { text: "a" },
    { text: "a", flag: false, count: 0, when: "2026-01-01", meta: {}, tags: [], color: "blue" },
    { text: "a", size: 3, ids: ["ab", "cd"] },
    { text: "a", ids: ["ab", "cd", "ef"] },
    { text: "a", ids: ["AB"] },
    { text: "a", count: -1 },
    { text: "a", count: "7" },
    { text: "a", flag: "false" },
    { text: "a", tags: [1] },
    { text: "a".repeat(11) },
    { text: "a", color: "green" },
    { text: "a", meta: [] },
    { text: "a", when: "yesterday" },
    { text: "a", unknown: 1 },
    { text: null },
    { flag: true }
  ])("agrees with Schema on %j", (input) => {
    const fast = decodeAll(input)
    const slow = viaSchemaAll(input)
    expect(Either.isRight(fast)).toBe(Either.isRight(slow))
    if (Either.isRight(fast) && Either.isRight(slow)) expect(fast.right).toEqual(slow.right)
  })

  it("returns well-formed input as it is, with defaults filled in a copy", () => {
    const input = { text: "a", size: 2 }
    expect(Either.getOrThrow(decodeAll(input))).toBe(input)
    const withDefault = { text: "a" }
    expect(Either.getOrThrow(decodeAll(withDefault))).toEqual({ text: "a", size: 10 })
    expect(withDefault).toEqual({ text: "a" })
    expect(Either.isRight(viaSchema({ text: "a" }))).toBe(true)
  })
})

describe("Property defaults", () => {
  it("a required property with a default takes it when none is given, and still rejects a wrong value", () => {
    const props = { header: Property.string({ title: "Header", required: true, defaultValue: "X-Api-Key", minLength: 1 }) }
    const decode = Property.decoder(props, "t")
    expect(decode({})).toEqual(Either.right({ header: "X-Api-Key" }))
    expect(decode({ header: "X-Other" })).toEqual(Either.right({ header: "X-Other" }))
    expect(Either.isLeft(decode({ header: "" }))).toBe(true)
  })
})

describe("Property rules, written once", () => {
  it("the fast path and Schema agree on every rule, and choices type the property", () => {
    const method = Property.string({ title: "Method", required: true, choices: Choice.of(["GET", "POST"]), minLength: 3 })
    const typed: Property.Property<"GET" | "POST", true> = method
    expect(typed.kind).toBe("STRING")
    const props = {
      s: Property.string({ title: "S", minLength: 2, maxLength: 4, pattern: /^[a-z]+$/ }),
      n: Property.integer({ title: "N", minimum: 1, maximum: 9, choices: Choice.of([1, 5, 9]) }),
      a: Property.array({ title: "A", items: Property.integer({ title: "I", minimum: 0 }), minItems: 1, maxItems: 2 }),
      m: method
    }
    const schemaSays = (key: keyof typeof props, value: unknown) =>
      Either.isRight(Schema.decodeUnknownEither(props[key].schema as Schema.Schema<unknown, unknown>)(value))
    const samples: Record<keyof typeof props, ReadonlyArray<unknown>> = {
      s: ["ab", "abcd", "a", "abcde", "AB", "", 3],
      n: [1, 5, 9, 0, 2, 10, 1.5, "x"],
      a: [[0], [0, 1], [], [0, 1, 2], [-1], ["x"], "x"],
      m: ["GET", "POST", "PUT", "", 1]
    }
    for (const key of Object.keys(samples) as Array<keyof typeof props>) {
      for (const value of samples[key]) {
        // Where the fast path accepts, Schema accepts (and decodes to the same value).
        expect([key, value, props[key].accepts!(value)]).toEqual([key, value, schemaSays(key, value)])
      }
    }
  })
})
