/**
 * What a command's handler runs with, as layers built when the handler runs: the components and
 * the HttpClient, each loaded then (a dynamic import), so that parsing the command line and
 * `--help` load neither the packages nor undici; and for the commands that seldom send a request
 * (`describe`, `schema`), an HttpClient that loads undici at its first request.
 *
 * @internal
 */
import * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientError from "@effect/platform/HttpClientError"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Components from "../../components/Components.js"

type ComponentsOptions = { readonly rateLimits: boolean }

const componentsModule = Effect.promise(() => import("../../components/Components.js"))

/** The catalog's components (`Components.layer`), loaded when the handler runs. */
export const components = (options?: ComponentsOptions): Layer.Layer<Components.Components> =>
  Layer.unwrapEffect(Effect.map(componentsModule, (module) => module.layer(options)))

/** The components a command about one type needs (`Components.layerFor`), loaded when the handler runs. */
export const componentsFor = (type: string | undefined, options?: ComponentsOptions): Layer.Layer<Components.Components> =>
  Layer.unwrapEffect(Effect.map(componentsModule, (module) => module.layerFor(type, options)))

/** The HttpClient the packages run on (`@x/http-undici`), loaded when the handler runs. */
export const http: Layer.Layer<HttpClient.HttpClient> = Layer.unwrapEffect(
  Effect.map(Effect.promise(() => import("@x/http-undici")), ({ UndiciHttpClient }) => UndiciHttpClient.layer)
)

/**
 * The same HttpClient, loaded at its first request (once; undici's agent then lives as long as
 * the layer): for the commands that rarely send one, which then start without undici.
 */
export const httpOnFirstRequest: Layer.Layer<HttpClient.HttpClient> = Layer.scoped(
  HttpClient.HttpClient,
  Effect.gen(function*() {
    const scope = yield* Effect.scope
    const loaded = yield* Effect.cached(
      Effect.promise(() => import("@x/http-undici")).pipe(
        Effect.flatMap(({ UndiciHttpClient }) => Layer.buildWithScope(UndiciHttpClient.layer, scope)),
        Effect.map(Context.get(HttpClient.HttpClient))
      )
    )
    return HttpClient.makeWith<never, never, HttpClientError.HttpClientError, never>(
      (request) => Effect.flatMap(loaded, (client) => Effect.flatMap(request, client.execute)),
      Effect.succeed
    )
  })
)
