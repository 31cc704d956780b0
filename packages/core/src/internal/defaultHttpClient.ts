/**
 * The HttpClient a typed client uses when it is given none: `@x/http-undici` when it is
 * installed (the fast one), else the platform's fetch. Core does not depend on it: it is looked
 * up when a client is first built.
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/** The package looked for, and the name in the error of it missing. */
export const undiciPackage = "@x/http-undici"

// A plain string argument keeps bundlers from resolving (or failing on) an optional package.
const importOptional = (specifier: string): Promise<unknown> => import(/* webpackIgnore: true */ /* @vite-ignore */ specifier)

/**
 * Whether the package resolves from here, asked of the resolver rather than read from an
 * error's wording; undefined where `import.meta.resolve` is not available (some bundlers).
 */
const resolves = (specifier: string): boolean | undefined => {
  if (typeof import.meta.resolve !== "function") return undefined
  try {
    import.meta.resolve(specifier)
    return true
  } catch {
    return false
  }
}

const isMissing = (error: unknown): boolean =>
  typeof error === "object" && error !== null &&
  (error as { code?: unknown }).code === "ERR_MODULE_NOT_FOUND" &&
  String((error as { message?: unknown }).message).includes(`'${undiciPackage}'`)

// Redirects are not followed, as `@x/http-undici` does not follow them: a 3xx is an answer, and a
// URL the file policy allowed cannot hand the request on to an address it refuses.
const fetchLayer = () =>
  import("@effect/platform/FetchHttpClient").then((FetchHttpClient) =>
    Layer.provide(FetchHttpClient.layer, Layer.succeed(FetchHttpClient.RequestInit, { redirect: "manual" })) as Layer.Layer<HttpClient.HttpClient>
  )

/**
 * The default HttpClient, given whether `@x/http-undici` is installed and how to load it.
 * Missing, it is fetch; present but broken (a dependency of its own missing, say), it is a
 * defect rather than a silent fallback.
 */
export const make = (
  load: () => Promise<unknown> = () => importOptional(undiciPackage),
  installed: () => boolean | undefined = () => resolves(undiciPackage)
): Layer.Layer<HttpClient.HttpClient> =>
  Layer.unwrapEffect(Effect.promise(() => {
    if (installed() === false) return fetchLayer()
    return load().then(
      (module) => (module as { readonly UndiciHttpClient: { readonly layer: Layer.Layer<HttpClient.HttpClient> } }).UndiciHttpClient.layer,
      (error: unknown) => {
        // Without a resolver to ask first, the loader's own "not found" is the sign.
        if (isMissing(error)) return fetchLayer()
        throw error
      }
    )
  }))
