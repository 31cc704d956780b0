/** The authorization code flow of a connection's values: the authorize URL, and the code exchange. */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Effect from "effect/Effect"
import type * as Either from "effect/Either"
import type * as Auth from "../Auth.js"
import { AuthenticationFailed, type ConnectorError, type InvalidInput, invalidInput } from "../ConnectorError.js"
import * as OAuth2 from "../OAuth2.js"
import type * as Property from "../Property.js"
import { type oauth2Props, revealKeys, settingsOf } from "./connection.js"

/** What the flow needs of a connection. */
interface OAuth2Connection {
  readonly oauth2?: OAuth2.Settings | undefined
  readonly decode: (values: unknown) => Either.Either<Readonly<Record<string, unknown>>, InvalidInput>
}

const oauth2Settings = (connection: OAuth2Connection, values: unknown) =>
  Effect.flatMap(connection.decode(values ?? {}), (decoded) =>
    connection.oauth2 === undefined
      ? Effect.fail(invalidInput([{ path: "", message: "this connection does not use OAuth2" }], "connection"))
      : Effect.succeed({ settings: settingsOf(connection.oauth2, decoded), values: decoded as Record<string, any> }))

export const authorizationUrl = (
  connection: OAuth2Connection,
  values: unknown,
  params: { readonly redirectUri: string; readonly state: string }
): Effect.Effect<string, InvalidInput> =>
  Effect.map(oauth2Settings(connection, values), ({ settings, values }) =>
    OAuth2.authorizationUrl(settings, { clientId: values["clientId"], ...params }))

export const exchangeCode = (
  connection: OAuth2Connection,
  values: unknown,
  params: { readonly code: string; readonly redirectUri: string }
): Effect.Effect<OAuth2.Token, ConnectorError, HttpClient.HttpClient> =>
  Effect.flatMap(oauth2Settings(connection, values), ({ settings, values }) =>
    OAuth2.exchangeCode(settings, {
      clientId: values["clientId"],
      clientSecret: values["clientSecret"],
      code: params.code,
      redirectUri: params.redirectUri
    }))

/** Credentials from an OAuth2 connection's values: its access token, renewed where the provider allows. */
export const authenticate = (
  settings: OAuth2.Settings,
  values: Property.Params<typeof oauth2Props>,
  name: string
): Effect.Effect<
  { readonly credentials: Auth.Credentials; readonly rateLimitKeys: Readonly<Record<string, string>> },
  ConnectorError,
  HttpClient.HttpClient
> =>
  values.accessToken === undefined
    ? Effect.fail(
      new AuthenticationFailed({
        message: `the ${name} connection has no access token: connect it first (authorization code flow)`
      })
    )
    : Effect.map(
      OAuth2.credentials(settingsOf(settings, values), {
        connection: name,
        clientId: values.clientId,
        clientSecret: values.clientSecret,
        token: { accessToken: values.accessToken, refreshToken: values.refreshToken, expiresAt: values.expiresAt }
      }),
      (credentials) => ({ credentials, rateLimitKeys: revealKeys({ token: values.accessToken! }) })
    )
