/** The property model, and the one constructor every kind of property is built with. */
import type * as Schema from "effect/Schema"
import type { Choice } from "../Choice.js"
import type { Issue } from "../ConnectorError.js"
import type { DynamicOptions } from "../DynamicOptions.js"

/**
 * @since 0.1.0
 * @category models
 */
export type Kind = "STRING" | "BOOLEAN" | "INTEGER" | "DATE_TIME" | "OBJECT" | "ARRAY" | "FILE"

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
  schema: Schema.Schema<A, any>,
  constraints: Record<string, unknown> = {},
  accepts?: (value: unknown) => boolean
): Property<A, R, I> => ({
  kind,
  title: config.title,
  description: config.description,
  required: (config.required ?? false) as R,
  secret: config.secret ?? false,
  choices: config.choices,
  dynamicOptions: config.dynamicOptions,
  defaultValue: config.defaultValue,
  constraints,
  schema,
  accepts
})

/**
 * A rule across several parameters (e.g. "at least one of idBoard and idList"): the issues it finds.
 *
 * @since 0.1.0
 * @category models
 */
export type Validate<P extends Properties> = (params: Params<P>) => ReadonlyArray<Issue>
