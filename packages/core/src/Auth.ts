/**
 * Credentials, applied to a provider's requests as an `HttpClient` transform, so component
 * code never touches them. Secret values are held as `Redacted` until the moment a request
 * is built, and every secret is listed so that it can be scrubbed from provider messages.
 *
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import type { ConnectorError } from "./ConnectorError.js"
import * as Scrub from "./internal/scrub.js"

/**
 * How a connection's credentials reach its requests.
 *
 * @since 0.1.0
 * @category models
 */
export interface Credentials {
  /** Adds the credentials to every request the client sends. */
  readonly transform: <E, R>(client: HttpClient.HttpClient.With<E, R>) => HttpClient.HttpClient.With<E, R>
  /** The secret values, to be scrubbed from anything a provider echoes back. */
  readonly secrets: ReadonlyArray<Redacted.Redacted<string>>
  /**
   * Called once after a 401: renews the credentials (an OAuth2 refresh). Succeeds with true
   * when the request should be tried again with the new credentials.
   */
  readonly refresh?: Effect.Effect<boolean, ConnectorError> | undefined
  /**
   * The same headers `transform` adds, when they never change (lower-case names): a client
   * that builds its own requests (`ProviderClient`) merges them as it builds each request,
   * which saves a copy of the request per call, instead of applying `transform`.
   */
  readonly staticHeaders?: Readonly<Record<string, string>> | undefined
}

/**
 * A secret, plain or `Redacted`.
 *
 * @since 0.1.0
 * @category models
 */
export type SecretValue = string | Redacted.Redacted<string>

/**
 * The plain value of a secret, for the one place that must send it.
 *
 * @since 0.1.0
 * @category utils
 */
export const reveal = (value: SecretValue): string => Redacted.isRedacted(value) ? Redacted.value(value) : value
const secretsOf = (values: ReadonlyArray<SecretValue>) =>
  values.filter(Redacted.isRedacted) as ReadonlyArray<Redacted.Redacted<string>>

/**
 * No credentials (e.g. an OAuth2 token endpoint, which takes them in the body).
 *
 * @since 0.1.0
 * @category constructors
 */
export const none: Credentials = { transform: (client) => client, secrets: [] }

/**
 * Static headers, e.g. `{ "X-Api-Key": key }`; Redacted values are revealed only into the request.
 *
 * @since 0.1.0
 * @category constructors
 */
export const headers = (values: Readonly<Record<string, SecretValue>>): Credentials => {
  const revealed = Object.fromEntries(
    Object.entries(values).map(([name, value]) => [name.toLowerCase(), reveal(value)])
  )
  return {
    transform: HttpClient.mapRequest(HttpClientRequest.setHeaders(revealed)),
    secrets: secretsOf(Object.values(values)),
    staticHeaders: revealed
  }
}

/**
 * A key in one header, optionally with a prefix (e.g. "Token ").
 *
 * @since 0.1.0
 * @category constructors
 */
export const apiKey = (header: string, key: Redacted.Redacted<string>, prefix = ""): Credentials =>
  ({ ...headers({ [header]: Redacted.make(prefix + Redacted.value(key)) }), secrets: [key] })

/**
 * `Authorization: Bearer <token>`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const bearer = (token: Redacted.Redacted<string>): Credentials => apiKey("Authorization", token, "Bearer ")

/**
 * Static query parameters, e.g. Trello's `key` and `token`. Prefer headers where the provider
 * accepts them: query strings end up in URLs and access logs.
 *
 * @since 0.1.0
 * @category constructors
 */
export const query = (values: Readonly<Record<string, SecretValue>>): Credentials => {
  const revealed = Object.entries(values).map(([name, value]) => [name, reveal(value)] as const)
  return {
    transform: HttpClient.mapRequest(HttpClientRequest.appendUrlParams(revealed)),
    secrets: secretsOf(Object.values(values))
  }
}

/**
 * Replaces every secret in a text (e.g. a provider's error message or a path) by `[redacted]`.
 *
 * @since 0.1.0
 * @category redaction
 */
export const scrub = (secrets: ReadonlyArray<Redacted.Redacted<string>>, text: string): string =>
  Scrub.replaceIn(text, Scrub.formsOf(secrets))

/**
 * `scrub` applied to every string (and key) of a decoded JSON value; the value itself when it
 * holds no secret.
 *
 * @since 0.1.0
 * @category redaction
 */
export const scrubValue = (secrets: ReadonlyArray<Redacted.Redacted<string>>, value: unknown): unknown => {
  const forms = Scrub.formsOf(secrets)
  return forms.length === 0 ? value : Scrub.walk(value, forms)
}
