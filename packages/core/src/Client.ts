/**
 * Typed clients: a component's actions as methods, their parameters and outputs typed from the
 * actions' own definitions (no hand-written duplicate), in two flavours. The Effect flavour
 * returns `Effect<Output, ConnectorError>`; the Promise flavour resolves to the output and
 * rejects with the same typed errors. Parameters are checked before anything is sent. For
 * programs that call a provider directly; the step executor stays for workflow files.
 *
 * @since 0.2.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Runtime from "effect/Runtime"
import * as Schema from "effect/Schema"
import * as Scope from "effect/Scope"
import type * as Action from "./Action.js"
import * as Component from "./Component.js"
import type * as Connection from "./Connection.js"
import type * as ConnectionTest from "./ConnectionTest.js"
import { type ConnectorError, UnexpectedResponse } from "./ConnectorError.js"
import * as Connections from "./Connections.js"
import * as FilePolicy from "./FilePolicy.js"
import * as DefaultHttpClient from "./internal/defaultHttpClient.js"
import * as internalConnectionTest from "./internal/connectionTest.js"
import { execute } from "./internal/executor.js"
import type * as Property from "./Property.js"

/**
 * The values a component's connection takes, typed (secrets as plain strings; `baseUrl` optional).
 *
 * @since 0.2.0
 * @category models
 */
export type ConnectionInput<C extends Component.Component> = C["connection"] extends Connection.Connection<infer P>
  ? Property.Input<Connection.WithBaseUrl<P>>
  : never

/**
 * An action's parameters as a method takes them: optional when the action requires none.
 *
 * @since 0.2.0
 * @category models
 */
export type Arguments<P extends Property.Properties> = {} extends Property.Input<P> ? [params?: Property.Input<P>]
  : [params: Property.Input<P>]

/**
 * The Effect flavour: one method per action, returning its output or a typed `ConnectorError`;
 * and `testConnection`, the connection's test (see `ConnectionTest`). What a method does to the
 * world is its action's `impact` and `idempotent` (`factory.component.actions[name]`, shown in
 * the connector's REFERENCE.md): a method of a `destroy` deletes or does what cannot be taken back.
 *
 * @since 0.2.0
 * @category models
 */
export type EffectClient<C extends Component.Component> =
  & {
    readonly [K in keyof C["actions"]]: C["actions"][K] extends Action.Action<infer P, infer A, any>
      ? (...args: Arguments<P>) => Effect.Effect<A, ConnectorError>
      : never
  }
  & {
    /**
     * Sends the connection's test request: what its answer says about the credentials, or a
     * `ConnectionTestFailed` saying whether they were refused or the provider not reached, and what to do.
     *
     * @since 0.3.0
     */
    readonly testConnection: () => Effect.Effect<ConnectionTest.Result, ConnectionTest.ConnectionTestFailed>
  }

/**
 * The Promise flavour: one method per action (what each does to the world: see `EffectClient`),
 * resolving to its output or rejecting with a typed `ConnectorError`; `testConnection`, the connection's test (rejecting with `ConnectionTestFailed`);
 * `close` waits for the calls under way, then releases the connection and its HTTP client
 * (later calls reject with `ClientClosed`).
 *
 * @since 0.2.0
 * @category models
 */
export type PromiseClient<C extends Component.Component> =
  & {
    readonly [K in keyof C["actions"]]: C["actions"][K] extends Action.Action<infer P, infer A, any>
      ? (...args: Arguments<P>) => Promise<A>
      : never
  }
  & {
    readonly close: () => Promise<void>
    /**
     * Sends the connection's test request (see `EffectClient`'s `testConnection`).
     *
     * @since 0.3.0
     */
    readonly testConnection: () => Promise<ConnectionTest.Result>
  }

/**
 * A call to a Promise client after its `close`.
 *
 * @since 0.2.0
 * @category errors
 */
export class ClientClosed extends Data.TaggedError("ClientClosed")<{ readonly message: string }> {}

/**
 * How a Promise client is built.
 *
 * @since 0.2.0
 * @category models
 */
export interface Options {
  /** The HttpClient to send requests with; by default `@x/http-undici` where it is installed, else fetch. */
  readonly httpClient?: Layer.Layer<HttpClient.HttpClient>
  /**
   * Where file inputs and downloads may reach (see `FilePolicy`); by default anywhere.
   *
   * @since 0.3.0
   */
  readonly filePolicy?: FilePolicy.Policy
}

/**
 * The typed clients of one component.
 *
 * @since 0.2.0
 * @category models
 */
export interface Factory<C extends Component.Component> {
  readonly component: C
  /** A Promise client on this connection. */
  readonly client: (connection: ConnectionInput<C>, options?: Options) => PromiseClient<C>
  /**
   * An Effect client on this connection, open for the scope: it uses the HttpClient in the
   * context if there is one, else the default.
   */
  readonly effect: (connection: ConnectionInput<C>) => Effect.Effect<EffectClient<C>, never, Scope.Scope>
}

/**
 * The default HttpClient of typed clients: `@x/http-undici` where it is installed, else fetch.
 *
 * @since 0.2.0
 * @category layers
 */
export const layerDefaultHttpClient: Layer.Layer<HttpClient.HttpClient> = DefaultHttpClient.make()

/**
 * The typed output; decoded again from its scrubbed encoding in the rare case that held a
 * secret, and an `UnexpectedResponse` when that no longer decodes (never an encoded value
 * passed off as the output type).
 */
const finishWith = (action: Action.Action, label: string) => {
  const decode = action.output === undefined ? undefined : Schema.decodeUnknownEither(action.output)
  return (output: unknown, encoded: unknown, scrubbed: unknown): Either.Either<unknown, UnexpectedResponse> => {
    if (scrubbed === encoded || decode === undefined) return Either.right(output)
    return Either.mapLeft(decode(scrubbed), () =>
      new UnexpectedResponse({ message: `${label}'s output held a secret of the connection, and without it is not a valid output` }))
  }
}

/**
 * One method per action, by the name it is listed under (its parameters decoded first: nothing
 * is sent on bad input), and `testConnection`.
 */
const methodsOf = (
  component: Component.Component,
  connections: Connections.Connections["Type"]
): Record<string, (params?: unknown) => Effect.Effect<unknown, ConnectorError | ConnectionTest.ConnectionTestFailed>> => {
  // The opened connection, once there is one: later calls skip the service's lookup.
  let opened: Connections.Opened | undefined
  const open = Effect.tap(Effect.suspend(() => connections.get(component)), (o) => {
    opened = o
  })
  const testConnection = () => internalConnectionTest.run(component, opened !== undefined ? Effect.succeed(opened) : open)
  const actions = Object.entries(component.actions).map(([name, action]) => {
    const label = `${Component.typeOf(component)}/${name}`
    const finish = finishWith(action, label)
    const run = (o: Connections.Opened, params: Readonly<Record<string, unknown>>) =>
      Effect.flatten(execute(o, action, params, label, finish))
    const call = (params: unknown = {}) => {
      const decoded = action.decode(params)
      if (Either.isLeft(decoded)) return Effect.fail(decoded.left)
      return opened !== undefined ? run(opened, decoded.right) : Effect.flatMap(open, (o) => run(o, decoded.right))
    }
    return [name, call] as const
  })
  return Object.fromEntries([...actions, ["testConnection", testConnection]])
}

type RunCallback = <A, E>(effect: Effect.Effect<A, E>, options: Runtime.RunCallbackOptions<A, E>) => unknown

/** Runs an effect as a Promise that rejects with the typed error itself (not a wrapper), so that `instanceof` and `_tag` work on it. */
const promiseOf = <A, E>(runCallback: RunCallback, effect: Effect.Effect<A, E>): Promise<A> =>
  new Promise((resolve, reject) =>
    runCallback(effect, { onExit: (exit) => Exit.isSuccess(exit) ? resolve(exit.value) : reject(Cause.squash(exit.cause)) })
  )

/**
 * The typed clients of a component.
 *
 * @example
 * ```ts
 * import { Action, Client, Component, Connection, Property, ProviderRequest } from "@x/core"
 * import { TestHttpClient } from "@x/core/testing"
 * import * as Schema from "effect/Schema"
 *
 * const Card = Schema.Struct({ id: Schema.String, name: Schema.String })
 *
 * const getCard = Action.make({
 *   name: "getCard",
 *   title: "Get Card",
 *   description: "Reads a card.",
 *   impact: "read",
 *   props: { id: Property.string({ title: "Card", required: true }) },
 *   output: Card,
 *   run: ({ id }, { client }) => client.json({ method: "GET", path: ProviderRequest.path`/cards/${id}` }, Card)
 * })
 *
 * const boards = Component.make({
 *   name: "boards", version: 1, title: "Boards", description: "Boards of cards.", category: "Productivity",
 *   connection: Connection.apiKey({
 *     title: "API key", header: "Authorization", prefix: "Bearer ",
 *     client: { defaultBaseUrl: "https://api.example.com/1" }
 *   }),
 *   actions: [getCard]
 * })
 *
 * // A stand-in for the provider that answers every request with one card.
 * const provider = TestHttpClient.make(() => ({ status: 200, body: { id: "c1", name: "Ship it" } }))
 *
 * // One method per action, its parameters and output typed from the action's definition.
 * const client = Client.make(boards).client({ apiKey: "k" }, { httpClient: provider.layer })
 * const card = await client.getCard({ id: "c1" }) // { readonly id: string; readonly name: string }
 * await client.close()
 *
 * assert.deepStrictEqual(card, { id: "c1", name: "Ship it" })
 * assert.deepStrictEqual(
 *   provider.sent.map(({ method, url, headers }) => [method, url, headers["authorization"]]),
 *   [["GET", "https://api.example.com/1/cards/c1", "Bearer k"]]
 * )
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const make = <C extends Component.Component>(component: C): Factory<C> => {
  if (Object.hasOwn(component.actions, "close")) {
    throw new Error(`${component.name} has an action named "close", which its Promise client uses to release it`)
  }
  if (Object.hasOwn(component.actions, "testConnection")) {
    throw new Error(`${component.name} has an action named "testConnection", which its clients use to test the connection`)
  }

  const effect = (connection: ConnectionInput<C>): Effect.Effect<EffectClient<C>, never, Scope.Scope> =>
    Effect.gen(function*() {
      const given = yield* Effect.serviceOption(HttpClient.HttpClient)
      const http = Option.isSome(given)
        ? Context.make(HttpClient.HttpClient, given.value)
        : yield* Layer.build(layerDefaultHttpClient)
      const connections = yield* Effect.provide(Connections.make({ [component.name]: connection }), http)
      return methodsOf(component, connections) as EffectClient<C>
    })

  const client = (connection: ConnectionInput<C>, options: Options = {}): PromiseClient<C> => {
    const scope = Effect.runSync(Scope.make())
    let ready: EffectClient<C> | undefined
    let runCallback: RunCallback = Runtime.runCallback(Runtime.defaultRuntime)
    let closing: Promise<void> | undefined
    const inFlight = new Set<Promise<unknown>>()
    const opening = new Promise<EffectClient<C>>((resolve, reject) =>
      runCallback(
        Effect.gen(function*() {
          const http = options.httpClient === undefined ? Context.empty() : yield* Layer.buildWithScope(options.httpClient, scope)
          const built = yield* Effect.provide(Scope.extend(effect(connection), scope), http)
          // Nothing outside an Effect program can export spans: calls run without a tracer.
          const runtime = yield* Effect.withTracerEnabled(Effect.runtime<never>(), false)
          runCallback = Runtime.runCallback(
            options.filePolicy === undefined ? runtime : Runtime.provideService(runtime, FilePolicy.FilePolicy, options.filePolicy)
          )
          return ready = built
        }),
        // A failure to build (a layer of the caller's, say) rejects the calls with the error itself.
        { onExit: (exit) => Exit.isSuccess(exit) ? resolve(exit.value) : reject(Cause.squash(exit.cause)) }
      )
    )
    // A failure to build is reported by the calls that wait for it, not as an unhandled rejection.
    opening.catch(() => {})
    const methods = Object.fromEntries([...Object.keys(component.actions), "testConnection"].map((name) => [name, (params?: unknown): Promise<unknown> => {
      if (closing !== undefined) return Promise.reject(new ClientClosed({ message: `this ${component.name} client is closed` }))
      const run = (c: EffectClient<C>) =>
        promiseOf(runCallback, (c as Record<string, (p?: unknown) => Effect.Effect<unknown, unknown>>)[name]!(params))
      const call = ready !== undefined ? run(ready) : opening.then(run)
      // Tracked until settled, so that `close` lets it finish before the HTTP client goes.
      inFlight.add(call)
      const settled = () => {
        inFlight.delete(call)
      }
      call.then(settled, settled)
      return call
    }]))
    const close = (): Promise<void> =>
      closing ??= Promise.allSettled([opening, ...inFlight]).then(() => Effect.runPromise(Scope.close(scope, Exit.void)))
    return { ...methods, close } as PromiseClient<C>
  }

  return { component, client, effect }
}
