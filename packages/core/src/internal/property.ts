/**
 * The property, `Property.ts`'s internal twin: the model every kind shares and the one
 * constructor they are built with; the rules a kind checks, each written once; the kinds;
 * decoding a record of parameters; a property as JSON data; and where a record's secrets are.
 */
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import type { Choice } from "../Choice.js"
import { type Issue, invalidInput, type InvalidInput } from "../ConnectorError.js"
import type { DynamicOptions } from "../DynamicOptions.js"
import * as Lazy from "./lazy.js"

// ---------------------------------------------------------------------------------------------
// The model
// ---------------------------------------------------------------------------------------------

/**
 * @since 0.1.0
 * @category models
 */
export type Kind =
  | "STRING"
  | "BOOLEAN"
  | "INTEGER"
  | "NUMBER"
  | "DATE_TIME"
  | "OBJECT"
  | "ARRAY"
  /** A group of fields loaded from the provider (`PropertyGroup`), its value an object of them. */
  | "GROUP"
  /** A file by path, URL or base64 (`FileInput`), opened by the action that takes it. */
  | "FILE"

/**
 * @since 0.1.0
 * @category models
 */
export interface Property<A, R extends boolean = boolean, I = A> {
  readonly kind: Kind
  readonly title: string
  readonly description?: string | undefined
  readonly required: R
  readonly secret: boolean
  /** The values it may take (an enum), each with its label. */
  readonly choices?: ReadonlyArray<Choice> | undefined
  readonly dynamicOptions?: DynamicOptions | undefined
  readonly defaultValue?: A | undefined
  /** Constraints that appear in the JSON description (minLength, pattern, items, ...). */
  readonly constraints: Readonly<Record<string, unknown>>
  readonly schema: Schema.Schema<A, any>
  /**
   * True when a value is valid and decodes to itself: the decoder's fast path, which skips
   * Schema for well-formed input. Absent where decoding transforms (secrets, nested objects).
   */
  readonly accepts?: ((value: unknown) => boolean) | undefined
  /** Type only, never set: what a typed caller gives (a secret's plain string, say), when it differs from `A`. */
  readonly "~input"?: I | undefined
}

/** @since 0.1.0 @category models */
export type AnyProperty = Property<any, boolean, any>
/** @since 0.1.0 @category models */
export type Properties = Readonly<Record<string, AnyProperty>>

/**
 * The decoded parameter record of a set of properties.
 *
 * @since 0.1.0
 * @category models
 */
export type Params<P extends Properties> =
  & { readonly [K in keyof P as P[K]["required"] extends true ? K : never]: P[K] extends Property<infer A, any, any> ? A : never }
  & { readonly [K in keyof P as P[K]["required"] extends true ? never : K]?: P[K] extends Property<infer A, any, any> ? A | undefined : never }

/**
 * What a typed caller gives for a parameter record: required properties present, optional ones
 * may be left out; secrets as plain strings.
 *
 * @since 0.2.0
 * @category models
 */
export type Input<P extends Properties> = Simplify<
  & { readonly [K in keyof P as P[K]["required"] extends true ? K : never]: P[K] extends Property<any, any, infer I> ? I : never }
  & { readonly [K in keyof P as P[K]["required"] extends true ? never : K]?: P[K] extends Property<any, any, infer I> ? I | undefined : never }
>

type Simplify<A> = { [K in keyof A]: A[K] } extends infer B ? B : never

/**
 * A rule across several parameters (e.g. "at least one of idBoard and idList"): the issues it finds.
 *
 * @since 0.1.0
 * @category models
 */
export type Validate<P extends Properties> = (params: Params<P>) => ReadonlyArray<Issue>

export interface Common<R extends boolean> {
  readonly title: string
  readonly description?: string
  readonly required?: R
}

export const make = <A, R extends boolean, I = A>(
  kind: Kind,
  config: Common<R> & {
    readonly secret?: boolean
    readonly choices?: ReadonlyArray<Choice>
    readonly dynamicOptions?: DynamicOptions
    readonly defaultValue?: A
  },
  schema: Schema.Schema<A, any> | (() => Schema.Schema<A, any>),
  constraints: Record<string, unknown> = {},
  accepts?: (value: unknown) => boolean
): Property<A, R, I> => {
  const property = {
    kind,
    title: config.title,
    description: config.description,
    required: (config.required ?? false) as R,
    secret: config.secret ?? false,
    choices: config.choices,
    dynamicOptions: config.dynamicOptions,
    defaultValue: config.defaultValue,
    constraints,
    schema: undefined as unknown as Schema.Schema<A, any>,
    accepts
  }
  if (Schema.isSchema(schema)) return { ...property, schema: schema as Schema.Schema<A, any> }
  // Built on first use (a decode that the fast path does not settle, a struct of it): a package
  // defines hundreds of properties at import, a run decodes a few.
  const built = Lazy.lazy(schema as () => Schema.Schema<A, any>)
  return Object.defineProperty(property, "schema", { enumerable: true, get: built })
}

/**
 * What `extend` may replace: how a property is shown and whether it is required. Not what it
 * accepts (its Schema, choices, rules): the decoder's fast check, built from the property's own
 * rules, would go on accepting what a replaced Schema refuses.
 */
export interface ExtendedFields {
  readonly title?: string
  readonly description?: string
  readonly required?: boolean
  readonly dynamicOptions?: DynamicOptions
}

/** @internal */
export const extend = <P extends Property<any, boolean, any>, const F extends ExtendedFields>(
  property: P,
  fields: F
): Omit<P, keyof F> & F => {
  const descriptors = Object.getOwnPropertyDescriptors(property)
  // A field given replaces the property's own (assigning over a getter without a setter throws).
  for (const key of Object.keys(fields)) delete descriptors[key]
  return Object.assign(Object.defineProperties({}, descriptors), fields) as any
}

// ---------------------------------------------------------------------------------------------
// Rules: each written once, its test driving both the Schema filter (which names the problem)
// and the decoder's fast path (which skips Schema for well-formed input), its constraint the
// JSON description.
// ---------------------------------------------------------------------------------------------

interface Rule<A> {
  readonly test: (value: A) => boolean
  readonly message: string
  /** What the rule adds to the property's JSON description, e.g. `{ minLength: 1 }`. */
  readonly constraint?: Readonly<Record<string, unknown>>
}

/** A rule that holds only when `bound` is given. */
const when = <B, A>(bound: B | undefined, rule: (bound: B) => Rule<A>): ReadonlyArray<Rule<A>> =>
  bound === undefined ? [] : [rule(bound)]

/** One of these values (none: no rule). */
const oneOf = <A>(values: ReadonlyArray<A> | undefined, show: (value: A) => string): ReadonlyArray<Rule<A>> =>
  values === undefined || values.length === 0
    ? []
    : [{ test: (value) => values.includes(value), message: `must be one of ${values.map(show).join(", ")}` }]

/** The Schema with every rule as a filter, in order: the first that fails names the problem. */
const refine = <A, I>(schema: Schema.Schema<A, I>, rules: ReadonlyArray<Rule<A>>): Schema.Schema<A, I> =>
  rules.reduce<Schema.Schema<A, I>>(
    (refined, rule) => refined.pipe(Schema.filter(rule.test, { message: () => rule.message })),
    schema
  )

/** The fast path's check: the value is of the type and passes every rule. */
const passesAll = <A>(isType: (value: unknown) => value is A, rules: ReadonlyArray<Rule<A>>) => (value: unknown): boolean => {
  if (!isType(value)) return false
  for (let i = 0; i < rules.length; i++) if (!rules[i]!.test(value)) return false
  return true
}

/** The rules' constraints, for the JSON description. */
const constraintsOf = (rules: ReadonlyArray<Rule<any>>): Record<string, unknown> =>
  Object.assign({}, ...rules.map((rule) => rule.constraint ?? {}))

// ---------------------------------------------------------------------------------------------
// The kinds
// ---------------------------------------------------------------------------------------------

/**
 * The settings of a STRING property: length, pattern, choices, dynamic options, default.
 *
 * @since 0.1.0
 * @category models
 */
export interface StringConfig<R extends boolean, V extends string = string> extends Common<R> {
  readonly minLength?: number
  readonly maxLength?: number
  readonly pattern?: RegExp
  /** Said when the value does not match `pattern`, e.g. "must be 24 hexadecimal digits". */
  readonly patternMessage?: string
  /** The values it may take; their literal types are the property's type. */
  readonly choices?: ReadonlyArray<Choice<V>>
  readonly dynamicOptions?: DynamicOptions
  readonly defaultValue?: NoInfer<V>
}

const isString = (u: unknown): u is string => typeof u === "string"

const stringRules = (config: StringConfig<boolean>): ReadonlyArray<Rule<string>> => [
  ...oneOf(config.choices?.map((choice) => choice.value), (v) => JSON.stringify(v)),
  ...when(config.minLength, (min) => ({
    test: (s: string) => s.length >= min,
    message: min === 1 ? "must not be empty" : `must be at least ${min} characters long`,
    constraint: { minLength: min }
  })),
  ...when(config.maxLength, (max) => ({
    test: (s: string) => s.length <= max,
    message: `must be at most ${max} characters long`,
    constraint: { maxLength: max }
  })),
  ...when(config.pattern, (pattern) => ({
    test: (s: string) => pattern.test(s),
    message: config.patternMessage ?? `must match ${pattern.source}`,
    constraint: { pattern: pattern.source }
  }))
]

const stringSchema = (rules: ReadonlyArray<Rule<string>>) =>
  refine(Schema.String.annotations({ message: () => "must be a string" }), rules)

export const string = <const R extends boolean = false, const V extends string = string>(
  config: StringConfig<R, V>
  // NoInfer: V comes from the choices (else string), never from the context the property is used in.
): Property<NoInfer<V>, R> => {
  const rules = stringRules(config)
  return make("STRING", config, () => stringSchema(rules) as unknown as Schema.Schema<V>, constraintsOf(rules), passesAll(isString, rules))
}

export const patterned = (pattern: RegExp, patternMessage: string) =>
<const R extends boolean = false>(
  config: Omit<StringConfig<R>, "pattern" | "patternMessage" | "choices">
): Property<string, R> => string({ ...config, pattern, patternMessage })

export const secret = <const R extends boolean = false>(
  config: Omit<StringConfig<R>, "choices" | "dynamicOptions" | "defaultValue">
): Property<Redacted.Redacted<string>, R, string | Redacted.Redacted<string>> => {
  const rules = stringRules(config)
  // Either form becomes a Redacted first; the rules then check the text inside it.
  // Each member says only "must be a string": the default message quotes the value given, which may be the secret itself.
  const schema = () => {
    const given = Schema.Union(
      Schema.RedactedFromSelf(Schema.String).annotations({ message: () => "must be a string" }),
      Schema.String.annotations({ message: () => "must be a string" })
    )
    return Schema.transform(given, Schema.RedactedFromSelf(stringSchema(rules)), {
      strict: true,
      decode: (value: string | Redacted.Redacted<string>) => Redacted.isRedacted(value) ? value : Redacted.make(value),
      encode: (value: Redacted.Redacted<string>) => value
    })
  }
  return make("STRING", { ...config, secret: true }, schema, constraintsOf(rules))
}

// Booleans and numbers also accept their string form, as an interpolated reference
// (`"${step.count}"`) gives them.

const BooleanLike = Schema.transformOrFail(Schema.Unknown, Schema.Boolean, {
  strict: true,
  decode: (u, _, ast) =>
    typeof u === "boolean"
      ? ParseResult.succeed(u)
      : u === "true" || u === "false"
      ? ParseResult.succeed(u === "true")
      : ParseResult.fail(new ParseResult.Type(ast, u, "must be a boolean")),
  encode: ParseResult.succeed
})

const IntegerLike = Schema.transformOrFail(Schema.Unknown, Schema.Number, {
  strict: true,
  decode: (u, _, ast) =>
    typeof u === "number" && Number.isSafeInteger(u)
      ? ParseResult.succeed(u)
      : typeof u === "string" && /^-?\d{1,15}$/.test(u)
      ? ParseResult.succeed(Number(u))
      : ParseResult.fail(new ParseResult.Type(ast, u, "must be an integer")),
  encode: ParseResult.succeed
})

const NumberLike = Schema.transformOrFail(Schema.Unknown, Schema.Number, {
  strict: true,
  decode: (u, _, ast) =>
    typeof u === "number" && Number.isFinite(u)
      ? ParseResult.succeed(u)
      : typeof u === "string" && /^-?\d{1,15}(\.\d{1,15})?$/.test(u)
      ? ParseResult.succeed(Number(u))
      : ParseResult.fail(new ParseResult.Type(ast, u, "must be a number")),
  encode: ParseResult.succeed
})

export const boolean = <const R extends boolean = false>(
  config: Common<R> & { readonly defaultValue?: boolean }
): Property<boolean, R> => make("BOOLEAN", config, BooleanLike, {}, (value) => typeof value === "boolean")

const isInteger = (u: unknown): u is number => typeof u === "number" && Number.isSafeInteger(u)
const isFiniteNumber = (u: unknown): u is number => typeof u === "number" && Number.isFinite(u)

/** The INTEGER and NUMBER kinds: the same bounds and choices, over whole or any finite numbers. */
const numeric = (kind: Kind, like: Schema.Schema<number, unknown>, isType: (u: unknown) => u is number) =>
<const R extends boolean = false, const V extends number = number>(
  config: Common<R> & {
    readonly minimum?: number
    readonly maximum?: number
    readonly choices?: ReadonlyArray<Choice<V>>
    readonly defaultValue?: NoInfer<V>
  }
): Property<NoInfer<V>, R> => {
  const rules: ReadonlyArray<Rule<number>> = [
    ...when(config.minimum, (min) => ({ test: (n: number) => n >= min, message: `must be at least ${min}`, constraint: { minimum: min } })),
    ...when(config.maximum, (max) => ({ test: (n: number) => n <= max, message: `must be at most ${max}`, constraint: { maximum: max } })),
    ...oneOf<number>(config.choices?.map((choice) => choice.value), String)
  ]
  return make(kind, config, () => refine(like, rules) as unknown as Schema.Schema<V, unknown>, constraintsOf(rules), passesAll(isType, rules))
}

export const integer = numeric("INTEGER", IntegerLike, isInteger)
export const number = numeric("NUMBER", NumberLike, isFiniteNumber)

const isoDateTime =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i

/** An ISO 8601 date or date-time, checked to exist (no 31 February, no 25:00). */
export const isIsoDateTime = (s: string): boolean => {
  const m = isoDateTime.exec(s)
  if (m === null) return false
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const date = new Date(Date.UTC(year, month - 1, day))
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return false
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59)) return false
  return true
}

const dateTimeRules: ReadonlyArray<Rule<string>> = [
  { test: isIsoDateTime, message: "must be an ISO 8601 date-time, e.g. 2026-11-21T10:00:00Z", constraint: { format: "date-time" } }
]

export const dateTime = <const R extends boolean = false>(
  config: Common<R> & { readonly defaultValue?: string }
): Property<string, R> =>
  make(
    "DATE_TIME",
    config,
    () => refine(Schema.String.annotations({ message: () => "must be an ISO 8601 date-time string" }), dateTimeRules),
    constraintsOf(dateTimeRules),
    passesAll(isString, dateTimeRules)
  )

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
    () => (config.properties === undefined ? JsonObject : struct(config.properties)) as Schema.Schema<any, any>,
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
  const rules: ReadonlyArray<Rule<ReadonlyArray<A>>> = [
    ...when(config.minItems, (min) => ({
      test: (a: ReadonlyArray<A>) => a.length >= min,
      message: `must have at least ${min} items`,
      constraint: { minItems: min }
    })),
    ...when(config.maxItems, (max) => ({
      test: (a: ReadonlyArray<A>) => a.length <= max,
      message: `must have at most ${max} items`,
      constraint: { maxItems: max }
    }))
  ]
  const schema = () =>
    refine(
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
    { ...(items !== undefined ? { items: describe(items) } : {}), ...constraintsOf(rules) },
    itemAccepts === undefined ? undefined : passesAll(isArrayOfItems, rules)
  )
}

// ---------------------------------------------------------------------------------------------
// Decoding a record of parameters: a Schema that reports every problem with its path, and a
// fast path that checks well-formed input property by property and returns it as it is.
// ---------------------------------------------------------------------------------------------

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

// Declared rather than a Schema.Record: a Record is rebuilt by assignment, which turns a key
// "__proto__" (as JSON.parse makes it) into the prototype and drops it unseen; the object
// given is kept as it is, so that such a key is refused as unknown like any other.
export const JsonObject = Schema.declare(isPlainObject, { message: () => "must be an object" })

export const struct = <P extends Properties>(properties: P): Schema.Schema<Params<P>, any> => {
  const fields: Record<string, Schema.Schema.All | Schema.PropertySignature.All> = {}
  const optional = new Set<string>()
  for (const [key, property] of Object.entries(properties)) {
    const defaultValue = property.defaultValue
    if (!property.required) optional.add(key)
    // A required property with a default always has a value: the default when none is given.
    fields[key] = property.required && defaultValue === undefined
      ? property.schema
      : defaultValue === undefined
      ? Schema.optionalWith(property.schema, { exact: true })
      : Schema.optionalWith(property.schema, { exact: true, default: () => defaultValue })
  }
  // A null or undefined optional value means "not given": it is dropped before decoding, so
  // that a wrong value is reported once, by its own schema.
  return Schema.transform(JsonObject, Schema.Struct(fields as any), {
    strict: false,
    decode: (input) => {
      let output: Record<string, unknown> | undefined
      for (const key in input) {
        if ((input[key] === null || input[key] === undefined) && optional.has(key)) {
          output ??= { ...input }
          delete output[key]
        }
      }
      return output ?? input
    },
    encode: (value) => value
  }) as any
}

export const issuesOf = (error: ParseResult.ParseError): ReadonlyArray<Issue> => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) => ({
    path: formatPath(issue.path),
    message: issue._tag === "Missing"
      ? "is required"
      : issue._tag === "Unexpected"
      ? "is not a known parameter"
      : issue.message
  }))
  // The members of a union that all refuse a value for one reason say it once.
  const seen = new Set<string>()
  return issues.filter((issue) => {
    const key = `${issue.path}\u0000${issue.message}`
    return seen.has(key) ? false : (seen.add(key), true)
  })
}

const formatPath = (path: ReadonlyArray<PropertyKey>): string =>
  path.reduce<string>(
    (acc, key) => typeof key === "number" ? `${acc}[${key}]` : acc === "" ? String(key) : `${acc}.${String(key)}`,
    ""
  )

const parseOptions = { errors: "all", onExcessProperty: "error" } as const

export const decoder = <P extends Properties>(
  properties: P,
  context: string,
  validate?: Validate<P>
): (input: unknown) => Either.Either<Params<P>, InvalidInput> => {
  const decode = decoderOfProperties(properties, context)
  if (validate === undefined) return decode
  return (input) =>
    Either.flatMap(decode(input), (params) => {
      const issues = validate(params)
      return issues.length === 0 ? Either.right(params) : Either.left(invalidInput(issues, context))
    })
}

const decoderOfProperties = <P extends Properties>(
  properties: P,
  context: string
): (input: unknown) => Either.Either<Params<P>, InvalidInput> => {
  // Schema's decoder, built the first time the fast path cannot settle an input.
  const decode = Lazy.lazy(() => Schema.decodeUnknownEither(struct(properties), parseOptions))
  const entries = Object.entries(properties)
  // Each property's fast check, read once: a property object is in V8's dictionary mode (its
  // lazy Schema is a getter), where every read of `accepts` was a slow lookup.
  const accepts = new Map(entries.map(([key, p]) => [key, p.accepts]))
  const required = entries.filter(([, p]) => p.required && p.defaultValue === undefined).map(([key]) => key)
  const defaultKeys = entries.filter(([, p]) => p.defaultValue !== undefined).map(([key]) => key)
  const defaults: Record<string, unknown> = Object.fromEntries(defaultKeys.map((key) => [key, properties[key]!.defaultValue]))
  // Well-formed input is checked property by property and returned as it is; anything else
  // goes through Schema, which names every problem.
  const fast = (input: Record<string, unknown>): Params<P> | undefined => {
    for (const key in input) {
      const accept = accepts.get(key)
      if (accept === undefined || !accept(input[key])) return undefined
    }
    // Indexed loops: no iterator allocated per call on this hot path.
    for (let i = 0; i < required.length; i++) if (!Object.hasOwn(input, required[i]!)) return undefined
    for (let i = 0; i < defaultKeys.length; i++) {
      // The defaults under what was given (every key of which is a property's, checked above).
      // Object.assign: a spread that then gains a key took V8 ten times as long (0.5 µs).
      if (!Object.hasOwn(input, defaultKeys[i]!)) return Object.assign({}, defaults, input) as Params<P>
    }
    return input as Params<P>
  }
  return (input) => {
    if (!isPlainObject(input)) {
      return Either.left(invalidInput([{ path: "", message: "parameters must be an object" }], context))
    }
    const accepted = fast(input)
    if (accepted !== undefined) return Either.right(accepted)
    return Either.mapLeft(decode()(input), (error) => invalidInput(issuesOf(error), context))
  }
}

// ---------------------------------------------------------------------------------------------
// A property as plain JSON data: what a UI needs to render it.
// ---------------------------------------------------------------------------------------------

export interface PropertyDescription {
  readonly kind: Kind
  readonly title: string
  readonly description?: string
  readonly required: boolean
  readonly secret?: true
  readonly choices?: ReadonlyArray<Choice>
  readonly dynamicOptions?: { readonly dependsOn: ReadonlyArray<string> }
  readonly defaultValue?: unknown
  readonly [constraint: string]: unknown
}

export const describe = (property: AnyProperty): PropertyDescription => ({
  kind: property.kind,
  title: property.title,
  ...(property.description !== undefined ? { description: property.description } : {}),
  required: property.required,
  ...(property.secret ? { secret: true as const } : {}),
  ...(property.choices !== undefined ? { choices: property.choices } : {}),
  ...(property.dynamicOptions !== undefined ? { dynamicOptions: { dependsOn: property.dynamicOptions.dependsOn } } : {}),
  ...(property.defaultValue !== undefined ? { defaultValue: property.defaultValue } : {}),
  ...property.constraints
})

export const describeAll = (properties: Properties): Record<string, PropertyDescription> =>
  Object.fromEntries(Object.entries(properties).map(([key, property]) => [key, describe(property)]))

// ---------------------------------------------------------------------------------------------
// The secret parameters of a step: where they are among its properties (a secret text, a secret
// OBJECT, or either inside an OBJECT's declared fields or an ARRAY's items), their values
// redacted for what is stored or shown, and the values themselves for what is scrubbed from the
// step's error and output. Found once per record of properties, from its description.
// ---------------------------------------------------------------------------------------------

/** What a secret value is shown as. */
const placeholder = "[secret]"

/** Where the secrets are in a value: all of it, some of its fields, or in each of its items. */
type Plan =
  | { readonly _tag: "Secret"; readonly publicKeys?: ReadonlySet<string> | undefined }
  | { readonly _tag: "Fields"; readonly fields: Readonly<Record<string, Plan>> }
  | { readonly _tag: "Items"; readonly items: Plan }

const planOfFields = (descriptions: Readonly<Record<string, PropertyDescription>>): Readonly<Record<string, Plan>> | undefined => {
  let fields: Record<string, Plan> | undefined
  for (const [key, description] of Object.entries(descriptions)) {
    const plan = planOf(description)
    if (plan !== undefined) (fields ??= {})[key] = plan
  }
  return fields
}

const planOf = (description: PropertyDescription): Plan | undefined => {
  if (description.secret === true) {
    const publicKeys = description["publicKeys"] as ReadonlyArray<string> | undefined
    return { _tag: "Secret", publicKeys: publicKeys === undefined ? undefined : new Set(publicKeys) }
  }
  const nested = description["properties"] as Readonly<Record<string, PropertyDescription>> | undefined
  if (description.kind === "OBJECT" && nested !== undefined) {
    const fields = planOfFields(nested)
    return fields === undefined ? undefined : { _tag: "Fields", fields }
  }
  const items = description["items"] as PropertyDescription | undefined
  if (description.kind === "ARRAY" && items !== undefined) {
    const plan = planOf(items)
    return plan === undefined ? undefined : { _tag: "Items", items: plan }
  }
  return undefined
}

const plans = new WeakMap<Properties, Readonly<Record<string, Plan>> | null>()

/** Where the secrets of a record of properties are; undefined when it has none (the usual case). */
const planOfProperties = (properties: Properties): Readonly<Record<string, Plan>> | undefined => {
  let plan = plans.get(properties)
  if (plan === undefined) plans.set(properties, plan = planOfFields(describeAll(properties)) ?? null)
  return plan ?? undefined
}

/** Whether a record of properties has a secret anywhere in it. */
export const hasSecrets = (properties: Properties): boolean => planOfProperties(properties) !== undefined

/** A secret value as shown: an object keeps its keys (so one sees which were given), anything else is the placeholder. */
const hidden = (value: unknown, publicKeys: ReadonlySet<string> | undefined): unknown =>
  isPlainObject(value)
    ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, isPublic(publicKeys, key) ? item : placeholder]))
    : placeholder

/** A key of a secret object declared not secret (`Accept`, `Content-Type` among a request's headers). */
const isPublic = (publicKeys: ReadonlySet<string> | undefined, key: string): boolean =>
  publicKeys !== undefined && publicKeys.has(key.toLowerCase())

const redactWith = (plan: Plan, value: unknown): unknown => {
  if (value === undefined || value === null) return value
  switch (plan._tag) {
    case "Secret":
      return hidden(value, plan.publicKeys)
    case "Fields":
      return isPlainObject(value) ? redactFields(plan.fields, value) : value
    case "Items":
      return Array.isArray(value) ? value.map((item) => redactWith(plan.items, item)) : value
  }
}

// `fromEntries` defines own properties: a key "__proto__" stays the user's key.
const redactFields = (fields: Readonly<Record<string, Plan>>, value: Readonly<Record<string, unknown>>) =>
  Object.fromEntries(Object.entries(value).map(([key, item]) => [key, Object.hasOwn(fields, key) ? redactWith(fields[key]!, item) : item]))

/** The parameters with every secret value replaced (the record itself when its properties have no secret). */
export const redact = (properties: Properties, params: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> => {
  const plan = planOfProperties(properties)
  return plan === undefined || !isPlainObject(params) ? params : redactFields(plan, params)
}

/** Every text in a secret value (its strings, at any depth, and a `Redacted`'s text). */
const textsIn = (value: unknown, out: Array<Redacted.Redacted<string>>): void => {
  if (typeof value === "string") out.push(Redacted.make(value))
  else if (Redacted.isRedacted(value)) {
    const text = Redacted.value(value)
    if (typeof text === "string") out.push(value as Redacted.Redacted<string>)
  } else if (Array.isArray(value)) for (const item of value) textsIn(item, out)
  else if (isPlainObject(value)) for (const key in value) textsIn(value[key], out)
}

const collect = (plan: Plan, value: unknown, out: Array<Redacted.Redacted<string>>): void => {
  if (value === undefined || value === null) return
  if (plan._tag === "Secret") {
    if (plan.publicKeys !== undefined && isPlainObject(value)) {
      for (const key in value) if (!isPublic(plan.publicKeys, key)) textsIn(value[key], out)
    } else textsIn(value, out)
  }
  else if (plan._tag === "Fields") {
    if (isPlainObject(value)) for (const key in plan.fields) collect(plan.fields[key]!, value[key], out)
  } else if (Array.isArray(value)) for (const item of value) collect(plan.items, item, out)
}

/** The values of the secret parameters given, to scrub from what the step returns or fails with. */
export const secretValues = (properties: Properties, params: Readonly<Record<string, unknown>>): ReadonlyArray<Redacted.Redacted<string>> => {
  const plan = planOfProperties(properties)
  if (plan === undefined) return []
  const out: Array<Redacted.Redacted<string>> = []
  for (const key in plan) collect(plan[key]!, params[key], out)
  return out
}
