import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import * as PlainSchema from "../../src/internal/plainSchema.js"

// Every result of the fast path must be what Schema's own parser gives: the same value (keys
// and their order included) on success, the same error on failure.
const same = (schema: Schema.Schema<any, any>, inputs: ReadonlyArray<unknown>) => {
  const decode = PlainSchema.decodeUnknownEither(schema, { errors: "all" })
  const encode = PlainSchema.encodeUnknownEither(schema)
  const schemaDecode = Schema.decodeUnknownEither(schema, { errors: "all" })
  const schemaEncode = Schema.encodeUnknownEither(schema)
  for (const input of inputs) {
    // What the fast path returns may be the input itself: it never changes it.
    const before = structuredClone(input)
    for (const [ours, theirs] of [[decode, schemaDecode], [encode, schemaEncode]] as const) {
      const a = ours(input)
      const b = theirs(input)
      expect(a._tag).toBe(b._tag)
      if (Either.isRight(a) && Either.isRight(b)) {
        expect(a.right).toStrictEqual(b.right)
        expect(JSON.stringify(a.right)).toBe(JSON.stringify(b.right))
      } else if (Either.isLeft(a) && Either.isLeft(b)) {
        expect(a.left.message).toBe(b.left.message)
      }
    }
    expect(input).toStrictEqual(before)
  }
}

const Session = Schema.Struct({
  id: Schema.String,
  count: Schema.Number,
  done: Schema.NullOr(Schema.Boolean),
  status: Schema.Literal("idle", "running"),
  output: Schema.Unknown,
  optionalOutput: Schema.optional(Schema.Unknown),
  optionalSchema: Schema.optional(Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown }))),
  schema: Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  urls: Schema.optional(Schema.Array(Schema.String)),
  title: Schema.optional(Schema.NullOr(Schema.String)),
  nested: Schema.optional(Schema.Struct({ a: Schema.String }))
})

// Every test runs with the structs' checks written as code and with the closures alone
// (a runtime that forbids code from strings): the same results both ways.
describe.each([["written checks", true], ["closures alone", false]] as const)("internal/plainSchema (%s)", (_, written) => {
  beforeAll(() => PlainSchema.writeChecks(written))
  afterAll(() => PlainSchema.writeChecks(true))

  it("writes a struct's checks as code only when asked to", () => {
    expect(PlainSchema.writesChecks(Session)).toBe(written)
    // A struct whose fields have defaults: its copy, transformations included.
    const Defaults = Schema.Struct({
      id: Schema.String,
      name: Schema.optionalWith(Schema.String, { default: () => "" }),
      tags: Schema.optionalWith(Schema.Array(Schema.String), { default: () => [] }),
      due: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null })
    })
    expect(PlainSchema.writesChecks(Defaults)).toBe(written)
    same(Defaults, [{ id: "1" }, { id: "1", name: "n", tags: ["t"], due: "d" }, { id: "1", due: null, extra: 1 }, { id: "1", name: 2 }, { id: "1", tags: [2] }, { name: "n" }])
    const decode = PlainSchema.decodeUnknownEither(Session)
    const input = { id: "1", count: 2, done: null, status: "idle", output: { x: 1 }, schema: null, urls: ["u"], title: null, nested: { a: "b" } }
    expect(Either.getOrThrow(decode(input))).toBe(input)
    // A nested value copied (its key more): the copy begins at its field, the fields after it checked once.
    const copied = Either.getOrThrow(decode({ ...input, nested: { a: "b", c: 1 } })) as Record<string, unknown>
    expect(copied).toStrictEqual(input)
    expect(copied).not.toBe(input)
    same(Session, [input, { ...input, count: "2" }, { ...input, status: "gone" }, { ...input, title: 1 }, { ...input, urls: [1] }, { ...input, schema: { a: 1 } }])
  })

  it("gives what Schema gives on a plain struct: declared fields only, in the schema's order", () => {
    const valid = { urls: ["u"], status: "idle", id: "1", count: 2, done: null, output: { x: [1] }, schema: null, extra: 1 }
    same(Session, [
      valid,
      { ...valid, schema: { type: "object" }, title: undefined, nested: { a: "b", c: 1 } },
      { ...valid, output: undefined },
      { ...valid, optionalOutput: { a: 1 } },
      { ...valid, optionalOutput: undefined },
      { ...valid, optionalSchema: { a: [1] } },
      { ...valid, optionalSchema: null },
      { ...valid, optionalSchema: "x" },
      { id: "1", count: 2, done: true, status: "running", schema: null },
      { ...valid, urls: ["u", 1] },
      { ...valid, status: "gone" },
      { ...valid, schema: [] },
      { ...valid, nested: null },
      { ...valid, count: "2" },
      { ...valid, id: undefined },
      null,
      [],
      "text"
    ])
  })

  it("returns the declared fields even when the input has a key named __proto__", () => {
    const input = JSON.parse(`{"id":"1","count":1,"done":false,"status":"idle","output":null,"schema":{"__proto__":{"a":1}}}`)
    same(Session, [input])
  })

  it("leaves every other schema to Schema: transformations, filters, defaults, options", () => {
    const withTransformation = Schema.Struct({ n: Schema.NumberFromString, at: Schema.optionalWith(Schema.String, { default: () => "x" }) })
    const withFilter = Schema.Struct({ id: Schema.String.pipe(Schema.minLength(2)) })
    const withRest = Schema.Struct({ name: Schema.String }, Schema.Record({ key: Schema.String, value: Schema.Number }))
    const withOptions = Schema.Struct({ id: Schema.String }).annotations({ parseOptions: { onExcessProperty: "error" } })
    same(withTransformation, [{ n: "1" }, { n: 1 }, { n: "1", at: "y" }])
    same(withFilter, [{ id: "ab" }, { id: "a" }])
    same(withRest, [{ name: "n", other: 1 }, { other: 1 }, { name: "n", other: "x" }])
    same(withOptions, [{ id: "1" }, { id: "1", extra: 1 }])
    const exact = PlainSchema.decodeUnknownEither(Schema.Struct({ u: Schema.Unknown }), { exact: true })
    expect(Either.isLeft(exact({}))).toBe(true)
    expect([withTransformation, withFilter, withRest, withOptions].map(PlainSchema.isPlain)).toEqual([false, false, false, false])
  })

  it("takes a struct with a record of unknown values for its other keys: the fields, then the rest in the input's order", () => {
    const Item = Schema.Struct({
      id: Schema.String,
      fieldData: Schema.Struct({ name: Schema.String, slug: Schema.optional(Schema.String) }, Schema.Record({ key: Schema.String, value: Schema.Unknown })),
      isDraft: Schema.optional(Schema.Boolean)
    })
    expect(PlainSchema.isPlain(Item)).toBe(true)
    same(Item, [
      { id: "1", fieldData: { price: 3, name: "n", slug: "s", tags: ["a"], nothing: null } },
      { id: "1", fieldData: { name: "n", undef: undefined }, isDraft: true, extra: 1 },
      { id: "1", fieldData: { name: "n" } },
      { id: "1", fieldData: { slug: "s" } },
      { id: "1", fieldData: { name: 1 } },
      { id: "1", fieldData: [] },
      { id: "1", fieldData: null },
      JSON.parse(`{"id":"1","fieldData":{"name":"n","__proto__":{"a":1},"b":2}}`)
    ])
  })

  it("takes fields with defaults, renamed fields and nested structs with defaults: the same values, defaults filled in", () => {
    const Label = Schema.Struct({ id: Schema.String, color: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }) })
    const Card = Schema.Struct({
      id: Schema.String,
      name: Schema.String,
      due: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
      labels: Schema.optionalWith(Schema.Array(Label), { default: () => [] }),
      closed: Schema.optionalWith(Schema.Boolean, { default: () => false, exact: true }),
      note: Schema.optionalWith(Schema.String, { default: () => "", nullable: true }),
      short: Schema.propertySignature(Schema.String).pipe(Schema.fromKey("shortUrl")),
      cover: Schema.optional(Label),
      first: Schema.NullOr(Label)
    })
    expect(PlainSchema.isPlain(Card)).toBe(true)
    expect(PlainSchema.isPlain(Schema.Array(Card))).toBe(true)
    const valid = { id: "c", name: "n", shortUrl: "s", first: null }
    same(Card, [
      valid,
      { ...valid, due: "2026-01-01", labels: [{ id: "l", color: "red" }, { id: "m" }], closed: true, note: "x", extra: 1 },
      { ...valid, due: undefined, labels: undefined, note: null, cover: { id: "l" }, first: { id: "f", color: null } },
      { ...valid, closed: undefined },
      { ...valid, labels: [{ color: "red" }] },
      { ...valid, due: 1 },
      { ...valid, shortUrl: undefined, short: "s" },
      { ...valid, first: { color: "x" } },
      { id: "c" },
      null,
      "text"
    ])
    same(Schema.Array(Card), [[valid, { ...valid, labels: [{ id: "l" }] }], [valid, { id: 1 }]])
    // Without a renamed field, the struct is read in one pass: the same values still.
    const { short: _, ...unrenamed } = Card.fields
    const OnePass = Schema.Struct(unrenamed)
    expect(PlainSchema.isPlain(OnePass)).toBe(true)
    same(OnePass, [
      { id: "c", name: "n", first: null },
      { id: "c", name: "n", first: null, due: undefined, labels: [{ id: "l", color: "red" }, { id: "m" }], closed: true, note: null, extra: 1 },
      { id: "c", name: "n", first: { id: "f" }, cover: { id: "l" }, labels: undefined, note: "x" },
      { id: "c", name: "n", first: null, closed: undefined },
      { id: "c", name: "n", first: null, labels: [{ color: "red" }] },
      { id: "c", name: "n" },
      { id: "c", first: null }
    ])
    // Every decoding gets its own default: a default array is never shared between two values.
    const decode = PlainSchema.decodeUnknownEither(Card)
    const [a, b] = [decode(valid), decode(valid)].map((result) => Either.getOrThrow(result))
    expect(a!.labels).not.toBe(b!.labels)
  })

  it("returns a value that already is what Schema builds as it is, and a copy of any other", () => {
    const Item = Schema.Struct({
      id: Schema.String,
      note: Schema.optional(Schema.String),
      tags: Schema.Array(Schema.String),
      nested: Schema.Struct({ a: Schema.String })
    })
    const decode = PlainSchema.decodeUnknownEither(Item, { errors: "all" })
    const encode = PlainSchema.encodeUnknownEither(Item)
    const right = (result: Either.Either<unknown, unknown>) => Either.getOrThrow(result)
    // The fields exactly, in the schema's order (an optional one left out): the value itself, and its parts.
    const exact = { id: "1", tags: ["a"], nested: { a: "x" } }
    for (const run of [decode, encode]) {
      expect(right(run(exact))).toBe(exact)
      expect((right(run({ ...exact, nested: { a: "y" } })) as typeof exact).tags).toBe(exact.tags)
    }
    // Anything else is a copy, equal to Schema's: another order, a key more, a class's instance.
    const others: ReadonlyArray<unknown> = [
      { tags: ["a"], id: "1", nested: { a: "x" } },
      { ...exact, extra: 1 },
      { ...exact, note: undefined, id: "1" },
      Object.assign(Object.create({ inherited: true }), exact)
    ]
    for (const other of others) {
      const decoded = right(decode(other))
      expect(decoded).not.toBe(other)
      expect(JSON.stringify(decoded)).toBe(JSON.stringify(right(Schema.decodeUnknownEither(Item)(other))))
    }
    // An array is itself until an item changes; its items that are themselves stay so in the copy.
    const Items = Schema.Array(Item)
    const list = [exact, { ...exact, extra: 1 }]
    const decoded = right(PlainSchema.decodeUnknownEither(Items)(list)) as Array<unknown>
    expect(decoded).not.toBe(list)
    expect(decoded[0]).toBe(exact)
    expect(right(PlainSchema.decodeUnknownEither(Items)([exact]))).toEqual([exact])
    const same = [exact, exact]
    expect(right(PlainSchema.decodeUnknownEither(Items)(same))).toBe(same)
    // A copy made deep down is made once: each level's value is checked once, not once more for the copy.
    let Nested: Schema.Schema<any, any> = Schema.Struct({ a: Schema.String })
    for (let depth = 0; depth < 8; depth++) Nested = Schema.Struct({ id: Schema.String, child: Nested })
    let reads = 0
    const deepest = Object.defineProperty({ extra: 1 } as Record<string, unknown>, "a", {
      enumerable: true,
      get: () => {
        reads++
        return "x"
      }
    })
    let value: Record<string, unknown> = deepest
    for (let depth = 0; depth < 8; depth++) value = { id: String(depth), child: value }
    const nestedCopy = right(PlainSchema.decodeUnknownEither(Nested)(value)) as Record<string, unknown>
    // Read before `expect` looks at the values (its comparison reads them too).
    const readsOfDecoding = reads
    expect(readsOfDecoding).toBe(1)
    expect(nestedCopy === value).toBe(false)
    // With a record for the rest: the fields in order, then keys of no field, is the value itself.
    const Fields = Schema.Struct({ name: Schema.String, slug: Schema.optional(Schema.String) }, Schema.Record({ key: Schema.String, value: Schema.Unknown }))
    const fields = { name: "n", slug: "s", color: "red", size: 2 }
    expect(right(PlainSchema.decodeUnknownEither(Fields)(fields))).toBe(fields)
    expect(right(PlainSchema.decodeUnknownEither(Fields)({ name: "n", color: "red" }))).toEqual({ name: "n", color: "red" })
    for (const other of [{ slug: "s", name: "n", color: "red" }, { color: "red", name: "n" }, { name: "n", color: "red", slug: "s" }, JSON.parse(`{"name":"n","__proto__":{"a":1}}`)]) {
      const decoded = right(PlainSchema.decodeUnknownEither(Fields)(other))
      expect(decoded).not.toBe(other)
      expect(JSON.stringify(decoded)).toBe(JSON.stringify(right(Schema.decodeUnknownEither(Fields)(other))))
    }
  })

  it("a field named after one of Object.prototype's own (toString, constructor) is absent when the input has no such key", () => {
    const Odd = Schema.Struct({
      id: Schema.String,
      nested: Schema.Struct({ a: Schema.String }),
      toString: Schema.optional(Schema.Unknown),
      constructor: Schema.optional(Schema.Unknown)
    })
    // In the schema's order, the nested value a copy (its key more): the output is a copy, the
    // fields after it written to it, with no inherited value among them.
    const input = { id: "1", nested: { a: "x", extra: 1 } }
    const decoded = Either.getOrThrow(PlainSchema.decodeUnknownEither(Odd)(input)) as Record<string, unknown>
    expect(Object.keys(decoded)).toEqual(["id", "nested"])
    expect(decoded).toStrictEqual({ id: "1", nested: { a: "x" } })
    same(Odd, [input, { id: "1", nested: { a: "x" } }, { id: "1", nested: { a: "x" }, toString: 1, constructor: "c" }])
    // A name Object.prototype gains after the schema was compiled (a polyfill, or a polluted
    // prototype): never read as the input's own.
    const Later = Schema.Struct({
      id: Schema.String,
      meta: Schema.optional(Schema.Struct({ a: Schema.String })),
      note: Schema.optional(Schema.Unknown),
      label: Schema.optional(Schema.String)
    })
    const decodeLater = PlainSchema.decodeUnknownEither(Later)
    Object.defineProperty(Object.prototype, "meta", { value: { a: "x", b: 1 }, configurable: true, writable: true })
    Object.defineProperty(Object.prototype, "note", { value: "polluted", configurable: true, writable: true })
    Object.defineProperty(Object.prototype, "label", { value: 1, configurable: true, writable: true })
    try {
      expect(Either.getOrThrow(decodeLater({ id: "1" }))).toStrictEqual({ id: "1" })
      expect(Object.keys(Either.getOrThrow(decodeLater({ id: "1", meta: { a: "y", c: 2 } })) as object)).toEqual(["id", "meta"])
      same(Later, [{ id: "1" }, { id: "1", meta: { a: "y", c: 2 } }, { id: "1", label: "l" }, { id: "1", label: 2 }])
      const alone = { id: "1" }
      expect(Either.getOrThrow(decodeLater(alone))).toBe(alone)
    } finally {
      delete (Object.prototype as Record<string, unknown>)["meta"]
      delete (Object.prototype as Record<string, unknown>)["note"]
      delete (Object.prototype as Record<string, unknown>)["label"]
    }
    // Enumerable keys on the prototype (an assignment, as pollution makes them): the input is
    // not taken as it is, and what comes back is what Schema gives, both ways.
    const Required = Schema.Struct({ id: Schema.String, meta: Schema.Struct({ a: Schema.String }) })
    const Id = Schema.Struct({ id: Schema.String })
    const prototype = Object.prototype as Record<string, unknown>
    prototype["meta"] = { a: "x", b: 1 }
    try {
      same(Required, [{ id: "1" }, { id: "1", meta: { a: "y" } }])
      prototype["id"] = 5
      same(Id, [{}, { id: "1" }])
    } finally {
      delete prototype["meta"]
      delete prototype["id"]
    }
  })
})
