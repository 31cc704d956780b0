/**
 * Dynamic options: a dropdown's choices loaded from the provider with the connection and the
 * parameters given so far (a board's lists once a board is chosen).
 *
 * @since 0.2.0
 */
import * as Effect from "effect/Effect"
import type { Choice } from "./Choice.js"
import type { ConnectorError } from "./ConnectorError.js"
import type { ProviderClient } from "./ProviderClient.js"

/**
 * What a loader gets: the parameters given so far and the connection's client.
 *
 * @since 0.2.0
 * @category models
 */
export interface Context {
  /** The parameters given so far, not yet decoded. */
  readonly params: Readonly<Record<string, unknown>>
  readonly client: ProviderClient
}

/**
 * Loads the choices from the provider.
 *
 * @since 0.2.0
 * @category models
 */
export type Loader = (context: Context) => Effect.Effect<ReadonlyArray<Choice<string>>, ConnectorError>

/**
 * A property's dynamic option list.
 *
 * @since 0.2.0
 * @category models
 */
export interface DynamicOptions {
  /** The parameters the options are loaded from; while one is missing, the list is empty. */
  readonly dependsOn: ReadonlyArray<string>
  readonly load: Loader
}

/**
 * A dynamic option list that depends on these parameters.
 *
 * @since 0.2.0
 * @category constructors
 */
export const make = (dependsOn: ReadonlyArray<string>, load: Loader): DynamicOptions => ({ dependsOn, load })

/**
 * Whether a parameter counts as given (not absent, null or empty).
 *
 * @since 0.2.0
 * @category utils
 */
export const isGiven = (value: unknown): boolean => value !== undefined && value !== null && value !== ""

/**
 * The value of a parameter the options depend on, as text: what a loader puts in a request's path
 * or query (a board's id, to list its lists). `load` runs the loader only once every parameter of
 * `dependsOn` is given, and the executor checks each against its property first, so inside a loader
 * it is that property's value (a number as its digits).
 *
 * @since 0.5.0
 * @category utils
 */
export const dependency = (params: Readonly<Record<string, unknown>>, name: string): string => String(params[name])

/**
 * Loads the options; while a parameter they depend on is missing, the list is empty and nothing is sent.
 *
 * @since 0.2.0
 * @category utils
 */
export const load = (
  options: DynamicOptions,
  params: Readonly<Record<string, unknown>>,
  client: ProviderClient
): Effect.Effect<ReadonlyArray<Choice<string>>, ConnectorError> =>
  options.dependsOn.every((name) => isGiven(params[name])) ? options.load({ params, client }) : Effect.succeed([])
