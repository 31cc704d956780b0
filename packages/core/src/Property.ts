/**
 * Input properties: the kinds a step's parameters (and a connection's fields) can have,
 * each mapped to an Effect `Schema`, and the decoding of a whole parameter record that
 * reports every problem at once.
 */
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import type * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { type Issue, invalidInput, type InvalidInput } from "./ConnectorError.js"
import type { OptionsLoader } from "./Options.js"

export type Kind = "STRING" | "BOOLEAN" | "INTEGER" | "DATE_TIME" | "OBJECT" | "ARRAY"

/** One choice of an enum or dynamic option list. */
export interface Choice<V = unknown> {
  readonly label: string
  readonly value: V
}

export interface DynamicOptions {
  /** The parameters the options are loaded from; while one is missing, the list is empty. */
  readonly dependsOn: ReadonlyArray<string>
  readonly load: OptionsLoader
}

export interface Property<A, R extends boolean = boolean> {
  readonly kind: Kind
  readonly title: string
  readonly description?: string | undefined
  readonly required: R
  readonly secret: boolean
  readonly options?: ReadonlyArray<Choice> | undefined
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
}

export type AnyProperty = Property<any, boolean>
export type Properties = Readonly<Record<string, AnyProperty>>

/** The decoded parameter record of a set of properties. */
export type Params<P extends Properties> =
  & { readonly [K in keyof P as P[K]["required"] extends true ? K : never]: P[K] extends Property<infer A, any> ? A : never }
  & { readonly [K in keyof P as P[K]["required"] extends true ? never : K]?: P[K] extends Property<infer A, any> ? A | undefined : never }

interface Common<R extends boolean> {
  readonly title: string
  readonly description?: string
  readonly required?: R
}

const make = <A, R extends boolean>(
  kind: Kind,
  config: Common<R> & {
    readonly secret?: boolean
    readonly options?: ReadonlyArray<Choice>
    readonly dynamicOptions?: DynamicOptions
    readonly defaultValue?: A
  },
  schema: Schema.Schema<A, any>,
  constraints: Record<string, unknown> = {},
  accepts?: (value: unknown) => boolean
): Property<A, R> => ({
  kind,
  title: config.title,
  description: config.description,
  required: (config.required ?? false) as R,
  secret: config.secret ?? false,
  options: config.options,
  dynamicOptions: config.dynamicOptions,
  defaultValue: config.defaultValue,
  constraints,
  schema,
  accepts
})

// ---------------------------------------------------------------------------
// STRING

export interface StringConfig<R extends boolean> extends Common<R> {
  readonly minLength?: number
  readonly maxLength?: number
  readonly pattern?: RegExp
  /** Said when the value does not match `pattern`, e.g. "must be 24 hexadecimal digits". */
  readonly patternMessage?: string
  readonly options?: ReadonlyArray<Choice<string>>
  readonly dynamicOptions?: DynamicOptions
  readonly defaultValue?: string
}

const stringSchema = (config: StringConfig<boolean>): Schema.Schema<string> => {
  let schema: Schema.Schema<string> = Schema.String.annotations({ message: () => "must be a string" })
  if (config.options !== undefined && config.options.length > 0) {
    const values = config.options.map((choice) => choice.value)
    schema = schema.pipe(Schema.filter((s) => values.includes(s), {
      message: () => `must be one of ${values.map((v) => JSON.stringify(v)).join(", ")}`
    }))
  }
  if (config.minLength !== undefined) {
    const min = config.minLength
    schema = schema.pipe(Schema.filter((s) => s.length >= min, {
      message: () => min === 1 ? "must not be empty" : `must be at least ${min} characters long`
    }))
  }
  if (config.maxLength !== undefined) {
    const max = config.maxLength
    schema = schema.pipe(Schema.filter((s) => s.length <= max, { message: () => `must be at most ${max} characters long` }))
  }
  if (config.pattern !== undefined) {
    const pattern = config.pattern
    schema = schema.pipe(Schema.filter((s) => pattern.test(s), {
      message: () => config.patternMessage ?? `must match ${pattern.source}`
    }))
  }
  return schema
}

const stringConstraints = (config: StringConfig<boolean>) => ({
  ...(config.minLength !== undefined ? { minLength: config.minLength } : {}),
  ...(config.maxLength !== undefined ? { maxLength: config.maxLength } : {}),
  ...(config.pattern !== undefined ? { pattern: config.pattern.source } : {})
})

/** A text value; `options` makes it an enum, `dynamicOptions` a dropdown loaded from the provider. */
export const string = <const R extends boolean = false>(config: StringConfig<R>): Property<string, R> =>
  make("STRING", config, stringSchema(config), stringConstraints(config), stringAccepts(config))

const stringAccepts = (config: StringConfig<boolean>) => {
  const { maxLength, minLength, pattern } = config
  const values = config.options?.map((choice) => choice.value)
  return (value: unknown): boolean =>
    typeof value === "string" &&
    (minLength === undefined || value.length >= minLength) &&
    (maxLength === undefined || value.length <= maxLength) &&
    (pattern === undefined || pattern.test(value)) &&
    (values === undefined || values.length === 0 || values.includes(value))
}

/** A secret text value (a key, token or password): decoded as `Redacted`, so it never prints. */
export const secret = <const R extends boolean = false>(
  config: Omit<StringConfig<R>, "options" | "dynamicOptions" | "defaultValue">
): Property<Redacted.Redacted<string>, R> =>
  make("STRING", { ...config, secret: true }, Schema.Redacted(stringSchema(config)), stringConstraints(config))

// ---------------------------------------------------------------------------
// BOOLEAN

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

/** true or false; the strings "true" and "false" (from an interpolated reference) are accepted. */
export const boolean = <const R extends boolean = false>(
  config: Common<R> & { readonly defaultValue?: boolean }
): Property<boolean, R> => make("BOOLEAN", config, BooleanLike, {}, (value) => typeof value === "boolean")

// ---------------------------------------------------------------------------
// INTEGER

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

/** A whole number; a string of digits (from an interpolated reference) is accepted. */
export const integer = <const R extends boolean = false>(
  config: Common<R> & {
    readonly minimum?: number
    readonly maximum?: number
    readonly options?: ReadonlyArray<Choice<number>>
    readonly defaultValue?: number
  }
): Property<number, R> => {
  let schema: Schema.Schema<number, unknown> = IntegerLike
  const { minimum, maximum } = config
  if (minimum !== undefined) {
    schema = schema.pipe(Schema.filter((n) => n >= minimum, { message: () => `must be at least ${minimum}` }))
  }
  if (maximum !== undefined) {
    schema = schema.pipe(Schema.filter((n) => n <= maximum, { message: () => `must be at most ${maximum}` }))
  }
  if (config.options !== undefined && config.options.length > 0) {
    const values = config.options.map((choice) => choice.value)
    schema = schema.pipe(Schema.filter((n) => values.includes(n), { message: () => `must be one of ${values.join(", ")}` }))
  }
  const values = config.options?.map((choice) => choice.value)
  return make("INTEGER", config, schema, {
    ...(minimum !== undefined ? { minimum } : {}),
    ...(maximum !== undefined ? { maximum } : {})
  }, (value) =>
    typeof value === "number" && Number.isSafeInteger(value) &&
    (minimum === undefined || value >= minimum) &&
    (maximum === undefined || value <= maximum) &&
    (values === undefined || values.length === 0 || values.includes(value)))
}

// ---------------------------------------------------------------------------
// DATE_TIME

const isoDateTime =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i

/** Whether a string is an ISO 8601 date or date-time, with or without a zone designator, that exists. */
export const isIsoDateTime = (s: string): boolean => {
  const m = isoDateTime.exec(s)
  if (m === null) return false
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const date = new Date(Date.UTC(year, month - 1, day))
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return false
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59)) return false
  return true
}

/** An ISO 8601 date-time (e.g. 2026-11-21T10:00:00Z, or without a zone); kept as the string given. */
export const dateTime = <const R extends boolean = false>(
  config: Common<R> & { readonly defaultValue?: string }
): Property<string, R> =>
  make(
    "DATE_TIME",
    config,
    Schema.String.annotations({ message: () => "must be an ISO 8601 date-time string" }).pipe(
      Schema.filter(isIsoDateTime, { message: () => "must be an ISO 8601 date-time, e.g. 2026-11-21T10:00:00Z" })
    ),
    { format: "date-time" },
    (value) => typeof value === "string" && isIsoDateTime(value)
  )

// ---------------------------------------------------------------------------
// OBJECT and ARRAY

const isPlainObject = (value: unknown): boolean =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const JsonObject = Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
  message: () => "must be an object"
})

/** A JSON object; with `properties`, its fields are decoded like a step's parameters. */
export const object = <const R extends boolean = false, P extends Properties = never>(
  config: Common<R> & { readonly properties?: P; readonly defaultValue?: Record<string, unknown> }
): Property<[P] extends [never] ? Readonly<Record<string, unknown>> : Params<P>, R> =>
  make(
    "OBJECT",
    config,
    (config.properties === undefined ? JsonObject : struct(config.properties)) as Schema.Schema<any, any>,
    config.properties === undefined ? {} : { properties: describeAll(config.properties) },
    config.properties === undefined ? isPlainObject : undefined
  ) as any

/** A JSON array; with `items`, each element is decoded as that property. */
export const array = <const R extends boolean = false, A = unknown>(
  config: Common<R> & {
    readonly items?: Property<A, boolean>
    readonly minItems?: number
    readonly maxItems?: number
    readonly defaultValue?: ReadonlyArray<A>
  }
): Property<ReadonlyArray<A>, R> => {
  let schema: Schema.Schema<ReadonlyArray<A>, any> = Schema.Array(
    config.items === undefined ? (Schema.Unknown as Schema.Schema<A>) : config.items.schema
  ).annotations({ message: () => "must be an array" })
  const { minItems, maxItems } = config
  if (minItems !== undefined) {
    schema = schema.pipe(Schema.filter((a) => a.length >= minItems, { message: () => `must have at least ${minItems} items` }))
  }
  if (maxItems !== undefined) {
    schema = schema.pipe(Schema.filter((a) => a.length <= maxItems, { message: () => `must have at most ${maxItems} items` }))
  }
  const items = config.items
  const itemAccepts = items === undefined ? () => true : items.accepts
  return make("ARRAY", config, schema, {
    ...(items !== undefined ? { items: describe(items) } : {}),
    ...(minItems !== undefined ? { minItems } : {}),
    ...(maxItems !== undefined ? { maxItems } : {})
  }, itemAccepts === undefined ? undefined : (value) =>
    Array.isArray(value) &&
    (minItems === undefined || value.length >= minItems) &&
    (maxItems === undefined || value.length <= maxItems) &&
    value.every(itemAccepts))
}

// ---------------------------------------------------------------------------
// Records of properties

/**
 * The Schema of a parameter record: optional properties may be absent, null or undefined (then their
 * default applies, if they have one); unknown keys are errors when decoded with `decoder`.
 */
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

/** Turns a Schema parse error into issues, each with the path of its field. */
export const issuesOf = (error: ParseResult.ParseError): ReadonlyArray<Issue> =>
  ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) => ({
    path: formatPath(issue.path),
    message: issue._tag === "Missing"
      ? "is required"
      : issue._tag === "Unexpected"
      ? "is not a known parameter"
      : issue.message
  }))

const formatPath = (path: ReadonlyArray<PropertyKey>): string =>
  path.reduce<string>(
    (acc, key) => typeof key === "number" ? `${acc}[${key}]` : acc === "" ? String(key) : `${acc}.${String(key)}`,
    ""
  )

const parseOptions = { errors: "all", onExcessProperty: "error" } as const

/** A rule across several parameters (e.g. "at least one of idBoard and idList"): the issues it finds. */
export type Validate<P extends Properties> = (params: Params<P>) => ReadonlyArray<Issue>

/**
 * A decoder for a parameter record, compiled once: it reports every problem at once, each with
 * its path, in one `InvalidInput`, and rejects parameters that no property declares.
 */
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
  const decode = Schema.decodeUnknownEither(struct(properties), parseOptions)
  const entries = Object.entries(properties)
  const required = entries.filter(([, p]) => p.required && p.defaultValue === undefined).map(([key]) => key)
  const defaults = entries.filter(([, p]) => p.defaultValue !== undefined)
  // Well-formed input is checked property by property and returned as it is; anything else
  // goes through Schema, which names every problem.
  const fast = (input: Record<string, unknown>): Params<P> | undefined => {
    for (const key in input) {
      const property = Object.hasOwn(properties, key) ? properties[key] : undefined
      if (property?.accepts === undefined || !property.accepts(input[key])) return undefined
    }
    for (const key of required) if (!(key in input)) return undefined
    let output = input
    for (const [key, property] of defaults) {
      if (!(key in input)) {
        if (output === input) output = { ...input }
        output[key] = property.defaultValue
      }
    }
    return output as Params<P>
  }
  return (input) => {
    if (!isPlainObject(input)) {
      return Either.left(invalidInput([{ path: "", message: "parameters must be an object" }], context))
    }
    const accepted = fast(input as Record<string, unknown>)
    if (accepted !== undefined) return Either.right(accepted)
    return Either.mapLeft(decode(input), (error) => invalidInput(issuesOf(error), context))
  }
}

// ---------------------------------------------------------------------------
// Description as JSON

export interface PropertyDescription {
  readonly kind: Kind
  readonly title: string
  readonly description?: string
  readonly required: boolean
  readonly secret?: true
  readonly options?: ReadonlyArray<Choice>
  readonly dynamicOptions?: { readonly dependsOn: ReadonlyArray<string> }
  readonly defaultValue?: unknown
  readonly [constraint: string]: unknown
}

/** A property as plain JSON data: what a UI needs to render it. */
export const describe = (property: AnyProperty): PropertyDescription => ({
  kind: property.kind,
  title: property.title,
  ...(property.description !== undefined ? { description: property.description } : {}),
  required: property.required,
  ...(property.secret ? { secret: true as const } : {}),
  ...(property.options !== undefined ? { options: property.options } : {}),
  ...(property.dynamicOptions !== undefined ? { dynamicOptions: { dependsOn: property.dynamicOptions.dependsOn } } : {}),
  ...(property.defaultValue !== undefined ? { defaultValue: property.defaultValue } : {}),
  ...property.constraints
})

export const describeAll = (properties: Properties): Record<string, PropertyDescription> =>
  Object.fromEntries(Object.entries(properties).map(([key, property]) => [key, describe(property)]))
