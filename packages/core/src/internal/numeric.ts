/** The INTEGER and NUMBER kinds: the same bounds and choices, over whole or any finite numbers. */
import type * as Schema from "effect/Schema"
import type { Choice } from "../Choice.js"
import { IntegerLike, NumberLike } from "./lenient.js"
import { type Common, type Kind, make, type Property } from "./property.js"
import * as Rule from "./rule.js"

const isInteger = (u: unknown): u is number => typeof u === "number" && Number.isSafeInteger(u)
const isFiniteNumber = (u: unknown): u is number => typeof u === "number" && Number.isFinite(u)

const numeric = (kind: Kind, like: Schema.Schema<number, unknown>, isType: (u: unknown) => u is number) =>
<const R extends boolean = false, const V extends number = number>(
  config: Common<R> & {
    readonly minimum?: number
    readonly maximum?: number
    readonly choices?: ReadonlyArray<Choice<V>>
    readonly defaultValue?: NoInfer<V>
  }
): Property<NoInfer<V>, R> => {
  const rules: ReadonlyArray<Rule.Rule<number>> = [
    ...Rule.when(config.minimum, (min) => ({ test: (n: number) => n >= min, message: `must be at least ${min}`, constraint: { minimum: min } })),
    ...Rule.when(config.maximum, (max) => ({ test: (n: number) => n <= max, message: `must be at most ${max}`, constraint: { maximum: max } })),
    ...Rule.oneOf<number>(config.choices?.map((choice) => choice.value), String)
  ]
  return make(kind, config, Rule.refine(like, rules) as unknown as Schema.Schema<V, unknown>, Rule.constraints(rules), Rule.accepts(isType, rules))
}

export const integer = numeric("INTEGER", IntegerLike, isInteger)
export const number = numeric("NUMBER", NumberLike, isFiniteNumber)
