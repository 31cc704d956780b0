/**
 * Input properties: the kinds a step's parameters (and a connection's fields) can have, each
 * mapped to an Effect `Schema`. Each rule of a kind (a length, a pattern, a choice) is written
 * once and drives both the Schema filter and the decoder's fast path.
 *
 * @since 0.1.0
 */
import type * as Either from "effect/Either"
import type * as ParseResult from "effect/ParseResult"
import type * as Redacted from "effect/Redacted"
import type * as Schema from "effect/Schema"
import type { Choice } from "./Choice.js"
import type { Issue, InvalidInput } from "./ConnectorError.js"
import * as internal from "./internal/property.js"
import type { Common, Params, Properties, Property, StringConfig, Validate } from "./internal/property.js"

/**
 * The property model: `Property`, `Properties`, the decoded `Params` of a record, what a typed
 * caller gives for it (`Input`), `Validate`.
 *
 * @since 0.1.0
 * @category models
 */
export type {
  /**
   * A property of any value type, required or not.
   *
   * @since 0.1.0
   * @category models
   */
  AnyProperty,
  /**
   * What a typed caller gives for a parameter record: required properties present, optional ones
   * may be left out; secrets as plain strings.
   *
   * @since 0.2.0
   * @category models
   */
  Input,
  /**
   * The kind of a property: `STRING`, `BOOLEAN`, `INTEGER`, `NUMBER`, `DATE_TIME`, `OBJECT`,
   * `ARRAY`, `GROUP` or `FILE`.
   *
   * @since 0.1.0
   * @category models
   */
  Kind,
  /**
   * The decoded parameter record of a set of properties.
   *
   * @since 0.1.0
   * @category models
   */
  Params,
  /**
   * A record of properties by parameter name: an action's, a trigger's or a connection's inputs.
   *
   * @since 0.1.0
   * @category models
   */
  Properties,
  /**
   * One input property: its kind, title, whether it is required, and the Schema of its value.
   *
   * @since 0.1.0
   * @category models
   */
  Property,
  /**
   * A rule across several parameters (e.g. "at least one of idBoard and idList"): the issues it finds.
   *
   * @since 0.1.0
   * @category models
   */
  Validate
} from "./internal/property.js"

/**
 * The settings of a STRING property: length, pattern, choices, dynamic options, default.
 *
 * @since 0.1.0
 * @category models
 */
export type {
  /**
   * The settings of a STRING property: length, pattern, choices, dynamic options, default.
   *
   * @since 0.1.0
   * @category models
   */
  StringConfig
} from "./internal/property.js"

/**
 * A text value; `choices` makes it an enum (typed by their values), `dynamicOptions` a
 * dropdown loaded from the provider.
 *
 * @since 0.1.0
 * @category constructors
 */
export const string: <const R extends boolean = false, const V extends string = string>(
  config: StringConfig<R, V>
) => Property<NoInfer<V>, R> = internal.string

/**
 * A constructor of text properties that match one pattern (an id format, say): the pattern
 * and its message written once, for every property of that format.
 *
 * @since 0.2.0
 * @category constructors
 */
export const patterned: (
  pattern: RegExp,
  patternMessage: string
) => <const R extends boolean = false>(
  config: Omit<StringConfig<R>, "pattern" | "patternMessage" | "choices">
) => Property<string, R> = internal.patterned

/**
 * A secret text value (a key, token or password): decoded as `Redacted`, so it never prints.
 * Given as text, or already `Redacted` (from `Config.redacted`, say), checked the same way.
 *
 * @since 0.1.0
 * @category constructors
 */
export const secret: <const R extends boolean = false>(
  config: Omit<StringConfig<R>, "choices" | "dynamicOptions" | "defaultValue">
) => Property<Redacted.Redacted<string>, R, string | Redacted.Redacted<string>> = internal.secret

/**
 * true or false; the strings "true" and "false" (from an interpolated reference) are accepted.
 *
 * @since 0.1.0
 * @category constructors
 */
export const boolean: <const R extends boolean = false>(
  config: Common<R> & { readonly defaultValue?: boolean }
) => Property<boolean, R> = internal.boolean

/**
 * A whole number; a string of digits (from an interpolated reference) is accepted.
 *
 * @since 0.1.0
 * @category constructors
 */
export const integer: <const R extends boolean = false, const V extends number = number>(
  config: Common<R> & {
    readonly minimum?: number
    readonly maximum?: number
    readonly choices?: ReadonlyArray<Choice<V>>
    readonly defaultValue?: NoInfer<V>
  }
) => Property<NoInfer<V>, R> = internal.integer

/**
 * A number, whole or not (a price, say); a numeric string (from an interpolated reference) is accepted.
 *
 * @since 0.2.0
 * @category constructors
 */
export const number: <const R extends boolean = false, const V extends number = number>(
  config: Common<R> & {
    readonly minimum?: number
    readonly maximum?: number
    readonly choices?: ReadonlyArray<Choice<V>>
    readonly defaultValue?: NoInfer<V>
  }
) => Property<NoInfer<V>, R> = internal.number

/**
 * Whether a string is an ISO 8601 date or date-time, with or without a zone designator, that exists.
 *
 * @since 0.1.0
 * @category utils
 */
export const isIsoDateTime: (s: string) => boolean = internal.isIsoDateTime

/**
 * An ISO 8601 date-time (e.g. 2026-11-21T10:00:00Z, or without a zone); kept as the string given.
 *
 * @since 0.1.0
 * @category constructors
 */
export const dateTime: <const R extends boolean = false>(
  config: Common<R> & { readonly defaultValue?: string }
) => Property<string, R> = internal.dateTime

export {
  /**
   * A JSON object or array property.
   *
   * @since 0.1.0
   * @category constructors
   */
  array,
  /**
   * A JSON object; `secret: true`: every value in it is a secret, never stored or shown in clear
   * (but for the keys listed in `publicKeys`, compared in any case).
   *
   * @since 0.1.0
   * @category constructors
   */
  object
} from "./internal/property.js"

/**
 * The Schema of a parameter record: optional properties may be absent, null or undefined (then
 * their default applies, if they have one); unknown keys are errors when decoded with `decoder`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const struct: <P extends Properties>(properties: P) => Schema.Schema<Params<P>, any> = internal.struct

/**
 * Turns a Schema parse error into issues, each with the path of its field.
 *
 * @since 0.1.0
 * @category utils
 */
export const issuesOf: (error: ParseResult.ParseError) => ReadonlyArray<Issue> = internal.issuesOf

/**
 * A decoder for a parameter record, compiled once: it reports every problem at once, each with
 * its path, in one `InvalidInput`, and rejects parameters that no property declares.
 *
 * @example
 * ```ts
 * import { Property } from "@x/core"
 * import * as Either from "effect/Either"
 *
 * const decode = Property.decoder({
 *   name: Property.string({ title: "Name", required: true, minLength: 1 }),
 *   pos: Property.integer({ title: "Position", minimum: 0 })
 * }, "createCard")
 *
 * assert.deepStrictEqual(decode({ name: "Ship it", pos: 2 }), Either.right({ name: "Ship it", pos: 2 }))
 *
 * const refused = decode({ name: "", pos: -1, colour: "red" })
 * assert.ok(Either.isLeft(refused))
 * assert.deepStrictEqual(refused.left.issues, [
 *   { path: "colour", message: "is not a known parameter" },
 *   { path: "name", message: "must not be empty" },
 *   { path: "pos", message: "must be at least 0" }
 * ])
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const decoder: <P extends Properties>(
  properties: P,
  context: string,
  validate?: Validate<P>
) => (input: unknown) => Either.Either<Params<P>, InvalidInput> = internal.decoder

/**
 * The property with these fields added or replaced (its title, description, dynamic options or
 * `required`: not what it accepts, which its rules check), its Schema still built on its first use:
 * a spread (`{ ...property, description }`) would build it, as it reads every field.
 *
 * @example
 * ```ts
 * import { Property } from "@x/core"
 *
 * const position = Property.string({ title: "Position", pattern: /^(top|bottom|\d+)$/ })
 * const checklistPosition = Property.extend(position, { description: "Where the checklist goes on its card." })
 * assert.strictEqual(checklistPosition.title, "Position")
 * assert.strictEqual(checklistPosition.description, "Where the checklist goes on its card.")
 * ```
 *
 * @since 0.10.0
 * @category utils
 */
export const extend: <P extends Property<any, boolean, any>, const F extends ExtendedFields>(
  property: P,
  fields: F
) => Omit<P, keyof F> & F = internal.extend

/**
 * The fields `extend` may change: how a property is shown (`title`, `description`,
 * `dynamicOptions`) and whether it is required.
 *
 * @since 0.13.0
 * @category models
 */
export type ExtendedFields = internal.ExtendedFields

/**
 * Parameters as they may be stored or shown: each secret value (a `secret` text, a secret OBJECT's
 * values, also inside declared fields and items) replaced by `"[secret]"`, an object's keys kept.
 *
 * @since 0.2.0
 * @category utils
 */
export const redact: (properties: Properties, params: Readonly<Record<string, unknown>>) => Readonly<Record<string, unknown>> = internal.redact

export {
  /**
   * A property as plain JSON data: what a UI needs to render it.
   *
   * @since 0.1.0
   * @category utils
   */
  describe,
  /**
   * Every property of a record, described.
   *
   * @since 0.1.0
   * @category utils
   */
  describeAll,
  /**
   * A property as plain JSON data: its kind, title, description, whether it is required or
   * secret, its choices, dynamic options, default and constraints.
   *
   * @since 0.1.0
   * @category models
   */
  type PropertyDescription
} from "./internal/property.js"
