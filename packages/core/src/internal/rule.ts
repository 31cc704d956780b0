/**
 * A property rule, written once: its test drives both the Schema filter (which names the
 * problem) and the decoder's fast path (which skips Schema for well-formed input), and its
 * constraint the JSON description.
 */
import * as Schema from "effect/Schema"

export interface Rule<A> {
  readonly test: (value: A) => boolean
  readonly message: string
  /** What the rule adds to the property's JSON description, e.g. `{ minLength: 1 }`. */
  readonly constraint?: Readonly<Record<string, unknown>>
}

/** A rule that holds only when `bound` is given. */
export const when = <B, A>(bound: B | undefined, rule: (bound: B) => Rule<A>): ReadonlyArray<Rule<A>> =>
  bound === undefined ? [] : [rule(bound)]

/** One of these values (none: no rule). */
export const oneOf = <A>(values: ReadonlyArray<A> | undefined, show: (value: A) => string): ReadonlyArray<Rule<A>> =>
  values === undefined || values.length === 0
    ? []
    : [{ test: (value) => values.includes(value), message: `must be one of ${values.map(show).join(", ")}` }]

/** The Schema with every rule as a filter, in order: the first that fails names the problem. */
export const refine = <A, I>(schema: Schema.Schema<A, I>, rules: ReadonlyArray<Rule<A>>): Schema.Schema<A, I> =>
  rules.reduce<Schema.Schema<A, I>>(
    (refined, rule) => refined.pipe(Schema.filter(rule.test, { message: () => rule.message })),
    schema
  )

/** The fast path's check: the value is of the type and passes every rule. */
export const accepts = <A>(isType: (value: unknown) => value is A, rules: ReadonlyArray<Rule<A>>) => (value: unknown): boolean => {
  if (!isType(value)) return false
  for (let i = 0; i < rules.length; i++) if (!rules[i]!.test(value)) return false
  return true
}

/** The rules' constraints, for the JSON description. */
export const constraints = (rules: ReadonlyArray<Rule<any>>): Record<string, unknown> =>
  Object.assign({}, ...rules.map((rule) => rule.constraint ?? {}))
