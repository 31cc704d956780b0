/** The OBJECT and ARRAY kinds: JSON values, optionally with declared fields or items. */
import * as Schema from "effect/Schema"
import { isPlainObject, JsonObject, struct } from "./decoder.js"
import { describe, describeAll } from "./describe.js"
import { type Common, type Input, make, type Params, type Properties, type Property } from "./property.js"
import * as Rule from "./rule.js"

/**
 * A JSON object; with `properties`, its fields are decoded like a step's parameters. `secret`:
 * every value in it is a secret (passwords, header values): never stored or shown in clear.
 */
export const object = <const R extends boolean = false, P extends Properties = never>(
  config: Common<R> & {
    readonly properties?: P
    readonly defaultValue?: Record<string, unknown>
    readonly secret?: boolean
    /** With `secret`: the keys (any case) whose values are not secret, shown and kept as given. */
    readonly publicKeys?: ReadonlyArray<string>
  }
): Property<
  [NoInfer<P>] extends [never] ? Readonly<Record<string, unknown>> : Params<NoInfer<P>>,
  R,
  [NoInfer<P>] extends [never] ? Readonly<Record<string, unknown>> : Input<NoInfer<P>>
> =>
  make(
    "OBJECT",
    config,
    (config.properties === undefined ? JsonObject : struct(config.properties)) as Schema.Schema<any, any>,
    {
      ...(config.properties === undefined ? {} : { properties: describeAll(config.properties) }),
      ...(config.secret === true && config.publicKeys !== undefined ? { publicKeys: config.publicKeys.map((key) => key.toLowerCase()) } : {})
    },
    config.properties === undefined ? isPlainObject : undefined
  ) as any

/** A JSON array; with `items`, each element is decoded as that property. */
export const array = <const R extends boolean = false, A = unknown, I = A>(
  config: Common<R> & {
    readonly items?: Property<A, boolean, I>
    readonly minItems?: number
    readonly maxItems?: number
    readonly defaultValue?: ReadonlyArray<A>
  }
): Property<ReadonlyArray<NoInfer<A>>, R, ReadonlyArray<NoInfer<I>>> => {
  const items = config.items
  const rules: ReadonlyArray<Rule.Rule<ReadonlyArray<A>>> = [
    ...Rule.when(config.minItems, (min) => ({
      test: (a: ReadonlyArray<A>) => a.length >= min,
      message: `must have at least ${min} items`,
      constraint: { minItems: min }
    })),
    ...Rule.when(config.maxItems, (max) => ({
      test: (a: ReadonlyArray<A>) => a.length <= max,
      message: `must have at most ${max} items`,
      constraint: { maxItems: max }
    }))
  ]
  const schema = Rule.refine(
    Schema.Array(items === undefined ? (Schema.Unknown as Schema.Schema<A>) : items.schema)
      .annotations({ message: () => "must be an array" }),
    rules
  )
  // Without a fast check of its items, an array goes through Schema.
  const itemAccepts = items === undefined ? () => true : items.accepts
  const isArrayOfItems = (u: unknown): u is ReadonlyArray<A> => Array.isArray(u) && u.every(itemAccepts!)
  return make(
    "ARRAY",
    config,
    schema,
    { ...(items !== undefined ? { items: describe(items) } : {}), ...Rule.constraints(rules) },
    itemAccepts === undefined ? undefined : Rule.accepts(isArrayOfItems, rules)
  )
}
