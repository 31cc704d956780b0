/**
 * Opening a connection: decode its values, authenticate, and build the provider client, with
 * every secret field listed for scrubbing.
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import type * as Auth from "../Auth.js"
import type * as Connection from "../Connection.js"
import type { ConnectorError } from "../ConnectorError.js"
import type * as Action from "../Action.js"
import type * as Property from "../Property.js"
import * as ProviderClient from "../ProviderClient.js"
import type * as RateLimiter from "../RateLimiter.js"
import * as Scrub from "./scrub.js"

/**
 * An opened connection: its decoded values (secrets `Redacted`), its provider client, and the
 * scrubber of its secrets that every output goes through.
 *
 * @since 0.2.0
 * @category models
 */
export interface Opened {
  readonly values: Readonly<Record<string, unknown>>
  readonly client: ProviderClient.ProviderClient
  /** What an action runs with (`{ client, connection }`), built once per opened connection. */
  readonly context: Action.Context
  /** Replaces the connection's secrets in a JSON value; returns the value itself when it holds none. */
  readonly scrub: <A>(value: A) => A
}

/** Opens a connection; `name` names it in messages (the component's name). */
export const open = <P extends Property.Properties>(
  connection: Connection.Connection<P>,
  values: unknown,
  name: string
): Effect.Effect<Opened, ConnectorError, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const decoded = (yield* connection.decode(values ?? {})) as Readonly<Record<string, unknown>>
    const authenticated = yield* connection.authenticate(decoded as Property.Params<P>, name)
    const { rateLimitKeys } = authenticated
    // Every secret field is scrubbed from provider messages, whatever the credentials are built from.
    const secretFields = Object.entries(connection.props)
      .filter(([, property]) => property.secret)
      .map(([key]) => decoded[key])
      .filter(Redacted.isRedacted) as Array<Redacted.Redacted<string>>
    const base = authenticated.credentials
    const credentials: Auth.Credentials = {
      transform: base.transform,
      refresh: base.refresh,
      staticHeaders: base.staticHeaders,
      // Read when an error is built: OAuth2 credentials add the tokens they renew.
      get secrets() {
        return [...base.secrets, ...secretFields]
      }
    }
    const rateLimits: Array<RateLimiter.KeyedRateLimit> = []
    for (const limit of connection.rateLimitsOf?.(decoded) ?? connection.rateLimits) {
      const credential = rateLimitKeys[limit.scope]
      if (credential !== undefined) rateLimits.push({ ...limit, credential })
    }
    const client = yield* ProviderClient.make({
      ...connection.client,
      baseUrl: (decoded as { baseUrl?: string }).baseUrl ?? connection.client.defaultBaseUrl,
      credentials,
      rateLimits
    })
    // The secrets change only when OAuth2 credentials renew a token, which adds to their list.
    const scrub = Scrub.make(() => credentials.secrets, () => base.secrets.length)
    return { values: decoded, client, context: { client, connection: decoded }, scrub }
  })
