/**
 * What a definition builds on first use rather than when it is defined (issue 33): an action's
 * encoder, its parameters' Schemas and Schema's decoder of them; the count of parts built
 * (`Laziness.built`) says when each is built, and `Property.extend` keeps a property's Schema
 * unbuilt where a spread would build it.
 */
import { describe, expect, it } from "@effect/vitest"
import { Action, Property } from "../src/index.js"
import { Laziness } from "../src/testing.js"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"

const define = () =>
  Action.make({
    name: "createThing",
    title: "Create a thing",
    description: "Creates a thing.",
    impact: "write",
    idempotent: false,
    props: {
      name: Property.string({ title: "Name", required: true, minLength: 1 }),
      tags: Property.array({ title: "Tags", items: Property.string({ title: "Tag" }) }),
      count: Property.integer({ title: "Count", minimum: 0 })
    },
    output: Schema.Struct({ id: Schema.String }),
    run: () => Effect.succeed({ id: "t1" })
  })

describe("Laziness", () => {
  it("defining an action builds nothing; a well-formed input decodes on the fast path, building nothing", () => {
    const before = Laziness.built()
    const action = define()
    expect(Laziness.built()).toBe(before)
    expect(action.decode({ name: "a", tags: ["x"], count: 2 })).toEqual(Either.right({ name: "a", tags: ["x"], count: 2 }))
    expect(Laziness.built()).toBe(before)
  })

  it("the first refused input builds the Schema decoder and the properties' Schemas, once; the first encode builds the encoder, once", () => {
    const action = define()
    const before = Laziness.built()
    const refused = action.decode({ name: "", count: -1 })
    expect(Either.isLeft(refused) && refused.left.issues).toEqual([
      { path: "name", message: "must not be empty" },
      { path: "count", message: "must be at least 0" }
    ])
    // The decoder's Schema, and each property's (the array's item's too).
    const afterDecode = Laziness.built()
    expect(afterDecode - before).toBe(5)
    action.decode({ name: "" })
    expect(Laziness.built()).toBe(afterDecode)
    expect(action.encode({ id: "t1", extra: true } as never)).toEqual(Either.right({ id: "t1" }))
    expect(Laziness.built()).toBe(afterDecode + 1)
    action.encode({ id: "t2" })
    expect(Laziness.built()).toBe(afterDecode + 1)
  })

  it("Property.extend adds or replaces fields as a spread would, without building the property's Schema", () => {
    const position = Property.string({ title: "Position", pattern: /^(top|bottom|\d+)$/ })
    const before = Laziness.built()
    const described = Property.extend(position, { description: "Where it goes." })
    const required = Property.extend(position, { required: true as const })
    expect(Laziness.built()).toBe(before)
    // One Schema, built once, shared by the property and what extends it (read before any spread builds it).
    expect(described.schema).toBe(position.schema)
    expect(Laziness.built()).toBe(before + 1)
    expect({ ...described, schema: undefined }).toEqual({ ...position, description: "Where it goes.", schema: undefined })
    expect(required.required).toBe(true)
    expect(position.required).toBe(false)
  })

  it("Property.extend replaces how a property is shown, never what it accepts (its rules would go on checking the old)", () => {
    const position = Property.string({ title: "Position", pattern: /^(top|bottom|\d+)$/ })
    const before = Laziness.built()
    const retitled = Property.extend(position, { title: "Where", description: "Only where." })
    expect([retitled.title, retitled.description]).toEqual(["Where", "Only where."])
    expect(Laziness.built()).toBe(before)
    // @ts-expect-error: a Schema is what the property accepts, not a field extend replaces.
    Property.extend(position, { schema: Schema.Literal("top") })
  })
})
