/**
 * A component's test kit: its executor, its steps by action name, and its connection opened
 * over an HttpClient as a runner provides it. Each connector's tests used to write these
 * same few helpers in their own `support.ts`.
 *
 * @since 0.2.0
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import type * as HttpClient from "@effect/platform/HttpClient"
import type * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Choice from "../Choice.js"
import * as Component from "../Component.js"
import * as Connections from "../Connections.js"
import type { ConnectorError } from "../ConnectorError.js"
import * as Executor from "../Executor.js"
import * as RateLimiter from "../RateLimiter.js"

/**
 * A step of a component's action, as a workflow writes it (labelled by the action's name).
 *
 * @since 0.2.0
 * @category models
 */
export interface Step {
  readonly label: string
  readonly name: string
  readonly type: string
  readonly parameters: Record<string, unknown>
}

/**
 * The kit's calls on one connection whose values are read each time it is used: a simulator's,
 * known only once the simulator has started (in a `beforeAll`); see `ComponentTest.connected`.
 *
 * @since 0.3.0
 * @category models
 */
export interface Connected {
  /** Provides the connection to any effect that needs one (a trigger's poll, a delivery, options). */
  readonly provide: <A, E>(effect: Effect.Effect<A, E, Connections.Connections>) => Effect.Effect<A, E>
  /** Runs `action` with these parameters on the connection. The output is typed `any`: tests assert on its shape. */
  readonly run: (action: string, parameters: Record<string, unknown>) => Effect.Effect<any, ConnectorError>
  /** Loads the dynamic options of `property` of `action` (by name) for these parameters. */
  readonly options: (
    action: string,
    property: string,
    parameters: Record<string, unknown>
  ) => Effect.Effect<ReadonlyArray<Choice.Choice<string>>, ConnectorError>
}

/**
 * The kit of one component; see `make`. Its calls run on rate limiters of the kit's own, one per
 * clock, not on the process's: a test on a `TestClock` starts with a credential's whole budget,
 * whatever tests ran before it in the same process (vitest's `isolate: false`), and never sees
 * the instants of the live clock, which its `TestClock` would take for the far future.
 *
 * @since 0.2.0
 * @category models
 */
export interface ComponentTest {
  readonly component: Component.Component
  /** An executor of this component alone. */
  readonly executor: Executor.Executor
  /** The step running `action` (by name) with these parameters. */
  readonly step: (action: string, parameters: Record<string, unknown>) => Step
  /** The component's connection of these values opened over `http` (fetch by default): what a runner provides. */
  readonly connectedTo: (
    values: unknown,
    http?: Layer.Layer<HttpClient.HttpClient>
  ) => Layer.Layer<Connections.Connections>
  /** Provides the connection of these values (the kit's `connection` by default) over fetch. */
  readonly withFetch: <A, E>(
    effect: Effect.Effect<A, E, Connections.Connections>,
    values?: unknown
  ) => Effect.Effect<A, E>
  /**
   * Runs `action` with these parameters on the connection of these values (the kit's
   * `connection` by default) over `http` (fetch by default). The output is typed `any`: tests
   * assert on its shape.
   */
  readonly run: (
    action: string,
    parameters: Record<string, unknown>,
    values?: unknown,
    http?: Layer.Layer<HttpClient.HttpClient>
  ) => Effect.Effect<any, ConnectorError>
  /**
   * The kit's `provide`, `run` and `options` on the connection of the values `values()` gives
   * when each is used (a simulator started before the tests), over `http` (fetch by default).
   *
   * @since 0.3.0
   */
  readonly connected: (values: () => unknown, http?: Layer.Layer<HttpClient.HttpClient>) => Connected
}

/**
 * The test kit of `component`; `connection` is the values its `withFetch` and `run` use when a
 * test names none.
 *
 * @since 0.2.0
 * @category constructors
 */
export const make = (component: Component.Component, options: { readonly connection?: unknown } = {}): ComponentTest => {
  const executor = Executor.make([component])
  // A limiter per clock: a limiter's instants are its clock's. A test on a `TestClock` (a new
  // one per test) gets its own; tests on the live clock share one, as the steps of a runner do.
  const limiters = new WeakMap<Clock.Clock, RateLimiter.RateLimiter>()
  const limiterOf = (clock: Clock.Clock) => {
    let limiter = limiters.get(clock)
    if (limiter === undefined) limiters.set(clock, limiter = RateLimiter.make())
    return limiter
  }
  // An inner `RateLimiters` (a test's own limiter) still wins: this one is provided outside it.
  const limited = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.clockWith((clock) => Effect.provideService(effect, RateLimiter.RateLimiters, limiterOf(clock)))
  const type = Component.typeOf(component)
  const step = (action: string, parameters: Record<string, unknown>): Step => ({
    label: action,
    name: action,
    type: `${type}/${action}`,
    parameters
  })
  const connectedTo = (values: unknown, http: Layer.Layer<HttpClient.HttpClient> = FetchHttpClient.layer) =>
    Connections.layer({ [component.name]: values }).pipe(Layer.provide(http))
  const withFetch = <A, E>(effect: Effect.Effect<A, E, Connections.Connections>, values: unknown = options.connection) =>
    limited(Effect.provide(effect, connectedTo(values)))
  const run = (
    action: string,
    parameters: Record<string, unknown>,
    values: unknown = options.connection,
    http: Layer.Layer<HttpClient.HttpClient> = FetchHttpClient.layer
  ) => limited(Effect.provide(executor.run(step(action, parameters)), connectedTo(values, http)))
  const connected = (values: () => unknown, http: Layer.Layer<HttpClient.HttpClient> = FetchHttpClient.layer): Connected => {
    // Read when the effect runs, not when it is built: the simulator's values exist only then.
    const provide = <A, E>(effect: Effect.Effect<A, E, Connections.Connections>) =>
      limited(Effect.suspend(() => Effect.provide(effect, connectedTo(values(), http))))
    return {
      provide,
      run: (action, parameters) => provide(executor.run(step(action, parameters))),
      options: (action, property, parameters) => provide(executor.options(`${type}/${action}`, property, parameters))
    }
  }
  return { component, executor, step, connectedTo, withFetch, run, connected }
}
