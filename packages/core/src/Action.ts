/**
 * An action: a name, a title, a description, input properties, an output Schema, and the
 * Effect that runs it on a provider connection.
 */
import type * as Effect from "effect/Effect"
import type * as Either from "effect/Either"
import type * as Schema from "effect/Schema"
import type { ConnectorError, InvalidInput } from "./ConnectorError.js"
import * as Property from "./Property.js"
import type { ProviderClient } from "./ProviderClient.js"


/** What an action runs with, besides its parameters: the connection's provider client. */
export interface Context {
  readonly client: ProviderClient
}

export interface Action<P extends Property.Properties = any, A = any> {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly props: P
  /** The Schema of the output; `undefined` when the action outputs nothing. */
  readonly output: Schema.Schema<A, any> | undefined
  /** The OAuth2 scopes the action needs, for connections that have scopes. */
  readonly scopes: ReadonlyArray<string>
  readonly run: (params: Property.Params<P>, context: Context) => Effect.Effect<A, ConnectorError>
  /** Decodes a step's parameters, compiled once. */
  readonly decode: (params: unknown) => Either.Either<Property.Params<P>, InvalidInput>
}

export const make = <P extends Property.Properties, A = void, I = A>(config: {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly props: P
  readonly output?: Schema.Schema<A, I>
  readonly scopes?: ReadonlyArray<string>
  /** A rule across parameters, checked with them before anything is sent. */
  readonly validate?: Property.Validate<P>
  readonly run: (params: Property.Params<P>, context: Context) => Effect.Effect<A, ConnectorError>
}): Action<P, A> => ({
  name: config.name,
  title: config.title,
  description: config.description,
  props: config.props,
  output: config.output,
  scopes: config.scopes ?? [],
  run: config.run,
  decode: Property.decoder(config.props, config.name, config.validate)
})

