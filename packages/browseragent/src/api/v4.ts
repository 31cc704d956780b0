/**
 * Where Browser Use's Cloud API V4 is (`../shared/specs/browseragent/browser-use-openapi-v4.json`)
 * and the names of its models.
 *
 * The connection has one base URL, V3's (`https://api.browser-use.com/api/v3`, or a simulator's
 * or a proxy's in its place). V4 is the same URL with its last segment `/v3` as `/v4`: the V4
 * actions send through the connection's client rebased there (same key, retries and error
 * reading). A base URL that does not end in `/v3` has no V4 beside it that we could know of: an
 * InvalidInput naming it, before any request.
 */
import { ConnectorError, type ProviderClient } from "@x/core"
import * as Effect from "effect/Effect"
import { neutralNames } from "./models.js"

/** The V4 base URL beside a V3 one (`…/v3` → `…/v4`), or undefined when it does not end in `/v3`. */
export const v4BaseUrl = (v3BaseUrl: string): string | undefined => {
  const match = /^(.*\/)v3\/*$/.exec(v3BaseUrl)
  return match === null ? undefined : `${match[1]}v4`
}

/** The connection's client at V4's base URL; an InvalidInput when its base URL has no `/v3` to replace. */
export const client = (connection: ProviderClient.ProviderClient): Effect.Effect<ProviderClient.ProviderClient, ConnectorError.InvalidInput> => {
  const base = v4BaseUrl(connection.baseUrl)
  return base === undefined
    ? Effect.fail(ConnectorError.invalidInput([{
      path: "baseUrl",
      message: `${connection.baseUrl} does not end in /v3: the V4 actions send to the connection's base URL with its last /v3 as /v4`
    }], "connection"))
    : Effect.succeed(connection.rebase(base))
}

/**
 * The V4 models (RunCreateRequest's enum) under neutral names, as the V3 ones: the family a
 * letter (A Claude, B GPT, as V3's; then C Gemini, D GLM, E Grok, F Kimi, G MiniMax), the rest
 * the provider's.
 */
export const models = {
  "modelfamilyA-opus-4.7": "claude-opus-4.7",
  "modelfamilyA-opus-4.8": "claude-opus-4.8",
  "modelfamilyA-opus-5": "claude-opus-5",
  "modelfamilyA-fable-5": "claude-fable-5",
  "modelfamilyA-sonnet-5": "claude-sonnet-5",
  "modelfamilyB-5.5": "gpt-5.5",
  "modelfamilyB-5.6": "gpt-5.6",
  "modelfamilyC-3.5-flash": "gemini-3.5-flash",
  "modelfamilyC-3.1-pro": "gemini-3.1-pro",
  "modelfamilyC-3-flash": "gemini-3-flash",
  "modelfamilyD-5.2": "glm-5.2",
  "modelfamilyE-4.5": "grok-4.5",
  "modelfamilyF-k3": "kimi-k3",
  "modelfamilyG-m3": "minimax-m3"
} as const
export type Model = keyof typeof models
const neutral = neutralNames(models)
/** The neutral names, as a property's choices. */
export const modelNames: ReadonlyArray<Model> = neutral.names
/** A wire model's neutral name; a model without one (a newer one) as the provider names it. */
export const neutralModel = neutral.neutralOf
