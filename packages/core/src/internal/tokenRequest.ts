/** The token endpoint's request and answer, shared by the code exchange and the refresh. */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Auth from "../Auth.js"
import { AuthenticationFailed, type ConnectorError } from "../ConnectorError.js"
import * as ProviderClient from "../ProviderClient.js"
import * as ProviderRequest from "../ProviderRequest.js"
import * as ResponseReader from "../ResponseReader.js"

/** @internal See `OAuth2.Token`. */
export interface Token {
  readonly accessToken: Redacted.Redacted<string>
  readonly refreshToken?: Redacted.Redacted<string> | undefined
  /** When the access token expires (ms since the epoch); absent when it does not. */
  readonly expiresAt?: number | undefined
  readonly scope?: string | undefined
}

const TokenResponse = Schema.Struct({
  access_token: Schema.String,
  token_type: Schema.optional(Schema.String),
  refresh_token: Schema.optional(Schema.String),
  expires_in: Schema.optional(Schema.Number),
  scope: Schema.optional(Schema.String)
})

/** @internal Posts a form to the token endpoint; a 400 (an invalid or used code) is an `AuthenticationFailed`. */
export const tokenRequest = (
  tokenUrl: string,
  form: Record<string, string>,
  secrets: ReadonlyArray<Redacted.Redacted<string>>
): Effect.Effect<Token, ConnectorError, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const client = yield* ProviderClient.make({
      baseUrl: tokenUrl,
      credentials: { ...Auth.none, secrets },
      // An invalid or used code is a 400 `invalid_grant`: the user must authorize again.
      refineError: (error) =>
        error._tag === "InvalidInput"
          ? new AuthenticationFailed({ message: error.message, request: error.request, status: error.status, body: error.body })
          : error
    })
    const response = yield* client.send(
      { method: "POST", path: "", body: ProviderRequest.formBody(form) },
      ResponseReader.json(TokenResponse)
    )
    const now = yield* Clock.currentTimeMillis
    return {
      accessToken: Redacted.make(response.access_token),
      refreshToken: response.refresh_token === undefined ? undefined : Redacted.make(response.refresh_token),
      expiresAt: response.expires_in === undefined ? undefined : now + response.expires_in * 1000,
      scope: response.scope
    }
  })
