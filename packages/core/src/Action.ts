/**
 * An action: a name, a title, a description, input properties, an output Schema, and the
 * Effect that runs it on a provider connection.
 *
 * @since 0.1.0
 */
import type * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type * as Connection from "./Connection.js"
import type { ConnectorError, InvalidInput } from "./ConnectorError.js"
import * as Lazy from "./internal/lazy.js"
import * as PlainSchema from "./internal/plainSchema.js"
import * as Property from "./Property.js"
import type { ProviderClient } from "./ProviderClient.js"
import * as PropertyGroup from "./PropertyGroup.js"

/**
 * What an action runs with, besides its parameters: the connection's provider client, and
 * its decoded values (typed by the connection the action declares).
 *
 * @since 0.1.0
 * @category models
 */
export interface Context<C = Readonly<Record<string, unknown>>> {
  readonly client: ProviderClient
  readonly connection: C
}

/**
 * What an action does to the world: only reads; writes (creates or changes); or destroys
 * (deletes, archives for good, refunds, cancels: what cannot be taken back). `describe` shows
 * it; `x-runner mcp` makes it the tools' annotations, and withholds a `destroy` unless allowed.
 *
 * @since 0.9.0
 * @category models
 */
export type Impact = "read" | "write" | "destroy"

/**
 * What `Action.make` is told of an action's effect on the world: its `impact`, and, for a write
 * or a destroy, whether it is `idempotent` (only its author knows, so it must be said); a read
 * is idempotent, so it may leave it out. An MCP client would ask before a destroy, and may repeat
 * an idempotent call; a wrong mark would mislead them both.
 *
 * @since 0.9.0
 * @category models
 */
export type Mark =
  | { readonly impact: "read"; readonly idempotent?: true }
  | { readonly impact: "write" | "destroy"; readonly idempotent: boolean }

const impacts: ReadonlyArray<unknown> = ["read", "write", "destroy"] satisfies ReadonlyArray<Impact>

/**
 * A definition's mark, checked: a missing or unknown `impact`, a write or destroy that does not
 * say whether it is `idempotent`, or a read said not to be, is a mistake in the definition,
 * thrown when it is defined (as a bad `deprecated` is), not found by an agent's user.
 *
 * @since 0.9.0
 * @category constructors
 */
export const checkMark = (name: string, mark: { readonly impact?: unknown; readonly idempotent?: unknown }): { readonly impact: Impact; readonly idempotent: boolean } => {
  const { idempotent, impact } = mark
  if (!impacts.includes(impact)) {
    throw new Error(
      `${name}: impact ${impact === undefined ? "is missing" : `${JSON.stringify(impact)} is none of`}: "read", "write" or "destroy" (what it does to the world)`
    )
  }
  if (idempotent !== undefined && typeof idempotent !== "boolean") throw new Error(`${name}: idempotent must be true or false, not ${JSON.stringify(idempotent)}`)
  if (impact === "read") {
    if (idempotent === false) throw new Error(`${name}: a read changes nothing, so it is idempotent: leave idempotent out`)
    return { impact, idempotent: true }
  }
  if (idempotent === undefined) {
    throw new Error(`${name}: a ${impact} must say whether repeating it with the same parameters changes nothing more (idempotent: true or false)`)
  }
  return { impact: impact as Impact, idempotent }
}

/**
 * An action: what it takes (props), what it returns (output), the scopes it needs and the Effect that runs it.
 *
 * @since 0.1.0
 * @category models
 */
export interface Action<P extends Property.Properties = any, A = any, N extends string = string> {
  readonly name: N
  readonly title: string
  readonly description: string
  /** What it does to the world: reads, writes, or destroys what cannot be taken back. @since 0.9.0 */
  readonly impact: Impact
  /**
   * Whether running it again with the same parameters succeeds and changes nothing more (a read
   * always is; a create is not; setting a field to a value is; a delete whose second call is
   * refused as not found is not). @since 0.9.0
   */
  readonly idempotent: boolean
  readonly props: P
  /** The Schema of the output; `undefined` when the action outputs nothing. */
  readonly output: Schema.Schema<A, any> | undefined
  /** The OAuth2 scopes the action needs, for connections that have scopes. */
  readonly scopes: ReadonlyArray<string>
  /** The connection the action declares it runs with, if it declares one. */
  readonly connection?: Connection.Connection<any> | undefined
  readonly run: (params: Property.Params<P>, context: Context<any>) => Effect.Effect<A, ConnectorError>
  /** Decodes a step's parameters, compiled once (Schema's decoder at the first input its fast path does not settle). */
  readonly decode: (params: unknown) => Either.Either<Property.Params<P>, InvalidInput>
  /** Encodes an output as JSON data, keeping only its declared fields (`null` without output), compiled once (at the first call). */
  readonly encode: (output: A) => Either.Either<unknown, ParseResult.ParseError>
  /** Its property groups by name, decoded against their loaded fields before it runs; `undefined` when it has none. */
  readonly groups?: ReadonlyArray<readonly [string, PropertyGroup.PropertyGroup]> | undefined
  /**
   * Finds what an attempt cut short may have created: the output that attempt would have
   * returned, among what was created at or after `since`, or `None` (then running it again
   * creates nothing twice). `undefined` when the action cannot tell.
   */
  readonly reconcile?: ((params: Property.Params<P>, context: Context<any>, attempt: Attempt) => Effect.Effect<Option.Option<A>, ConnectorError>) | undefined
  /** Set when the action is on its way out: since when, what to use instead, and why. */
  readonly deprecated?: Deprecation | undefined
}

/** A calendar day written `YYYY-MM-DD` that exists (no 2026-02-30). */
const Day = Schema.String.pipe(
  Schema.pattern(/^\d{4}-\d{2}-\d{2}$/, { message: () => "must be a date written YYYY-MM-DD" }),
  Schema.filter((day) => {
    const date = new Date(`${day}T00:00:00Z`)
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(day)
  }, { message: () => "must be a day of the calendar" })
)

/**
 * Why an action (or trigger) is on its way out: the day it was deprecated (`YYYY-MM-DD`, the
 * provider's or ours), what replaces it (an action's name or a sentence; none when nothing
 * does), and the reason. `describe` shows it, the runner warns when a deprecated action runs,
 * and the contract tests let only deprecated actions send operations the provider deprecated.
 *
 * @since 0.4.0
 * @category models
 */
export const Deprecation = Schema.Struct({
  since: Day,
  replacement: Schema.optional(Schema.NonEmptyTrimmedString),
  reason: Schema.NonEmptyTrimmedString
})

/**
 * A deprecation, decoded: `since`, `replacement` if any, `reason`.
 *
 * @since 0.4.0
 * @category models
 */
export interface Deprecation extends Schema.Schema.Type<typeof Deprecation> {}

const decodeDeprecation = Schema.decodeUnknownEither(Deprecation)

/**
 * A definition's `deprecated`, checked: a bad date or an empty reason is a mistake in the
 * definition, thrown when it is defined (as a registry's duplicate is), not found by a user.
 *
 * @since 0.4.0
 * @category constructors
 */
export const checkDeprecation = (name: string, deprecated: Deprecation | undefined): Deprecation | undefined => {
  if (deprecated === undefined) return undefined
  const decoded = decodeDeprecation(deprecated)
  if (Either.isLeft(decoded)) throw new Error(`${name}: deprecated: ${ParseResult.TreeFormatter.formatErrorSync(decoded.left)}`)
  return decoded.right
}

/**
 * One line for people: `deprecated since 2026-01-29: use listItems; <reason>` (or `nothing
 * replaces it`). The runner says it this way when a workflow uses a deprecated action or trigger;
 * a component's REFERENCE.md shows the same deprecation, from `describe`.
 *
 * @since 0.4.0
 * @category utils
 */
export const deprecationNote = (deprecation: Deprecation): string =>
  `deprecated since ${deprecation.since}: ${
    deprecation.replacement === undefined ? "nothing replaces it" : `use ${deprecation.replacement}`
  }; ${deprecation.reason}`

/**
 * An attempt of an action that was cut short: when it began.
 *
 * @since 0.2.0
 * @category models
 */
export interface Attempt {
  readonly since: Date
}

/**
 * Of these records, the newest created at or after the attempt began, to the second (providers
 * tell creation times to the second or finer; the attempt's start is floored to its second):
 * what a create cut short may have made, for an action's `reconcile`. `createdAt` gives a
 * record's creation time in milliseconds; of records created at the same time, the last one
 * given wins.
 *
 * @since 0.2.0
 * @category reconciliation
 */
export const newestCreatedSince = <R>(records: Iterable<R>, createdAt: (record: R) => number, attempt: Attempt): Option.Option<R> => {
  const from = Math.floor(attempt.since.getTime() / 1000) * 1000
  let newest: { readonly record: R; readonly at: number } | undefined
  for (const record of records) {
    const at = createdAt(record)
    if (at >= from && (newest === undefined || at >= newest.at)) newest = { record, at }
  }
  return newest === undefined ? Option.none() : Option.some(newest.record)
}

const encodeNothing = () => Either.right(null)

/**
 * Defines an action. With `connection`, its context's `connection` is that connection's
 * decoded values, typed. Its `impact` is required, and `idempotent` with a write or a destroy
 * (see `Mark`): checked here, a missing or bad mark throws. Its encoder and its parameters'
 * Schemas are built at their first use, not here: importing a package defines every action of it.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = <
  const N extends string,
  P extends Property.Properties,
  A = void,
  I = A,
  C extends Property.Properties = Property.Properties
>(config: Mark & {
  readonly name: N
  readonly title: string
  readonly description: string
  readonly props: P
  readonly output?: Schema.Schema<A, I>
  readonly scopes?: ReadonlyArray<string>
  readonly connection?: Connection.Connection<C>
  /** A rule across parameters, checked with them before anything is sent. */
  readonly validate?: Property.Validate<P>
  readonly run: (
    params: Property.Params<P>,
    context: Context<Property.Params<Connection.WithBaseUrl<C>>>
  ) => Effect.Effect<A, ConnectorError>
  /**
   * How to find what an attempt cut short created (see `Action.reconcile`): an action that
   * creates something the provider lets us find again declares it.
   */
  readonly reconcile?: (
    params: Property.Params<P>,
    context: Context<Property.Params<Connection.WithBaseUrl<C>>>,
    attempt: Attempt
  ) => Effect.Effect<Option.Option<A>, ConnectorError>
  /**
   * Marks the action deprecated: `since` (`YYYY-MM-DD`), `replacement` (an action's name or a
   * sentence), `reason`. It still runs; the runner warns each run. Checked here: a bad date throws.
   */
  readonly deprecated?: Deprecation
}): Action<P, A, N> => {
  const output = config.output
  const encoder = output === undefined ? undefined : Lazy.lazy(() => PlainSchema.encodeUnknownEither(output))
  return {
    name: config.name,
    title: config.title,
    description: config.description,
    ...checkMark(config.name, config),
    props: config.props,
    output: config.output,
    scopes: config.scopes ?? [],
    connection: config.connection,
    run: config.run,
    decode: Property.decoder(config.props, config.name, config.validate),
    encode: encoder === undefined ? encodeNothing : (value) => encoder()(value),
    groups: PropertyGroup.groupsOf(config.props),
    reconcile: config.reconcile,
    deprecated: checkDeprecation(config.name, config.deprecated)
  }
}
