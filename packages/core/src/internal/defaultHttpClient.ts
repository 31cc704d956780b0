/**
 * The HttpClient a typed client uses when it is given none: `@x/http-undici` when it is
 * installed (the fast one), else the platform's fetch. Core does not depend on it: it is looked
 * up when a client is first built.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/** The package looked for, and the name in the error of it missing. */
export const undiciPackage = "@x/http-undici"

// A plain string argument keeps bundlers from resolving (or failing on) an optional package.
const importOptional = (specifier: string): Promise<unknown> => import(/* webpackIgnore: true */ /* @vite-ignore */ specifier)

const isMissing = (error: unknown): boolean =>
  typeof error === "object" && error !== null &&
  (error as { code?: unknown }).code === "ERR_MODULE_NOT_FOUND" &&
  String((error as { message?: unknown }).message).includes(`'${undiciPackage}'`)

/**
 * The default HttpClient, given how to load `@x/http-undici`. Missing, it is fetch; present but
 * broken (a dependency of its own missing, say), it is a defect rather than a silent fallback.
 */
export const make = (
  load: () => Promise<unknown> = () => importOptional(undiciPackage)
): Layer.Layer<HttpClient.HttpClient> =>
  Layer.unwrapEffect(Effect.promise(() =>
    load().then(
      (module) => (module as { readonly UndiciHttpClient: { readonly layer: Layer.Layer<HttpClient.HttpClient> } }).UndiciHttpClient.layer,
      (error: unknown) => {
        if (isMissing(error)) return FetchHttpClient.layer
        throw error
      }
    )
  ))
