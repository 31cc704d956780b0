/**
 * Dynamic options: a dropdown's choices loaded from the provider with the connection and the
 * parameters given so far (a board's lists once a board is chosen).
 */
import * as Effect from "effect/Effect"
import type { ConnectorError } from "./ConnectorError.js"
import type { Choice, DynamicOptions } from "./Property.js"
import type { ProviderClient } from "./ProviderClient.js"

export interface OptionsContext {
  /** The parameters given so far, not yet decoded. */
  readonly params: Readonly<Record<string, unknown>>
  readonly client: ProviderClient
}

export type OptionsLoader = (
  context: OptionsContext
) => Effect.Effect<ReadonlyArray<Choice<string>>, ConnectorError>

/** A dynamic option list that depends on these parameters. */
export const dynamic = (dependsOn: ReadonlyArray<string>, load: OptionsLoader): DynamicOptions => ({ dependsOn, load })

/** Whether a parameter counts as given (not absent, null or empty). */
export const isGiven = (value: unknown) => value !== undefined && value !== null && value !== ""

/** Loads the options; while a parameter it depends on is missing, the list is empty and nothing is sent. */
export const load = (
  options: DynamicOptions,
  params: Readonly<Record<string, unknown>>,
  client: ProviderClient
): Effect.Effect<ReadonlyArray<Choice<string>>, ConnectorError> =>
  options.dependsOn.every((name) => isGiven(params[name])) ? options.load({ params, client }) : Effect.succeed([])

/** Maps provider records to choices: label from one field, value from another; a value listed twice, once. */
export const choices = <A>(
  items: ReadonlyArray<A>,
  label: (item: A) => string,
  value: (item: A) => string
): ReadonlyArray<Choice<string>> => {
  const seen = new Map<string, Choice<string>>()
  for (const item of items) {
    const v = value(item)
    if (!seen.has(v)) seen.set(v, { label: label(item), value: v })
  }
  return [...seen.values()]
}
