/**
 * The component model: a component is a name, a version, a title, a category, a connection,
 * actions and triggers. Definitions are data plus Effects: `describe` prints them as JSON.
 *
 * @since 0.1.0
 */
import * as Duration from "effect/Duration"
import * as JSONSchema from "effect/JSONSchema"
import * as Schema from "effect/Schema"
import type { Action } from "./Action.js"
import * as Connection from "./Connection.js"
import * as CustomAction from "./CustomAction.js"
import * as Property from "./Property.js"
import type * as RateLimiter from "./RateLimiter.js"
import type { Trigger } from "./Trigger.js"

// ---------------------------------------------------------------------------
// Components

/**
 * A component: its name and version, its connection, its actions and triggers.
 *
 * @since 0.1.0
 * @category models
 */
export interface Component<
  Actions extends Readonly<Record<string, Action>> = Readonly<Record<string, Action>>,
  Conn extends Connection.Connection<any> = Connection.Connection<any>
> {
  readonly name: string
  readonly version: number
  readonly title: string
  readonly description: string
  readonly category: string
  readonly connection: Conn
  /** By name; typed, for components defined with `make`, so that typed clients can be derived from them. */
  readonly actions: Actions
  readonly triggers: Readonly<Record<string, Trigger>>
  /** Whether the generic custom action (any request with the connection's auth) is offered, as `customAction`. */
  readonly customAction: boolean
}

/**
 * The actions of a component by name, typed: these actions, and the custom action when it is offered.
 *
 * @since 0.2.0
 * @category models
 */
export type ActionsByName<Actions extends ReadonlyArray<Action>, Custom extends boolean> =
  & { readonly [A in Actions[number] as A["name"]]: A }
  & (Custom extends true ? { readonly customAction: typeof CustomAction.action } : unknown)

/**
 * Defines a component; the custom action is added when asked for, and the connection's OAuth2 scopes are derived from the actions and triggers.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = <
  const Actions extends ReadonlyArray<Action>,
  Conn extends Connection.Connection<any>,
  const Custom extends boolean = false
>(config: {
  readonly name: string
  readonly version: number
  readonly title: string
  readonly description: string
  readonly category: string
  readonly connection: Conn
  readonly actions: Actions
  readonly triggers?: ReadonlyArray<Trigger>
  readonly customAction?: Custom
}): Component<ActionsByName<Actions, Custom>, Conn> => ({
  name: config.name,
  version: config.version,
  title: config.title,
  description: config.description,
  category: config.category,
  connection: withScopesOf(config.connection, [...config.actions, ...(config.triggers ?? [])]),
  actions: Object.fromEntries(
    [...config.actions, ...(config.customAction === true ? [CustomAction.action] : [])].map((a) => [a.name, a])
  ) as ActionsByName<Actions, Custom>,
  triggers: Object.fromEntries((config.triggers ?? []).map((t) => [t.name, t])),
  customAction: config.customAction ?? false
})

/**
 * The component with its connection's rate limits replaced (and no plan-dependent ones): for
 * a sandbox or a load test whose provider keeps other limits, or none (`[]`: no limiter).
 * Auth, client and rate-limit keys are the connection's own.
 *
 * @since 0.1.0
 * @category utils
 */
export const withRateLimits = <C extends Component>(component: C, rateLimits: ReadonlyArray<RateLimiter.RateLimit>): C => ({
  ...component,
  connection: { ...component.connection, rateLimits, rateLimitsOf: undefined }
})

/**
 * The connection asking for the OAuth2 scopes these actions and triggers need (besides any it
 * lists): a component's scopes are derived from its members, in one place.
 */
const withScopesOf = <Conn extends Connection.Connection<any>>(connection: Conn, members: ReadonlyArray<Scoped>): Conn => {
  if (connection.oauth2 === undefined) return connection
  const scopes = [...new Set([...connection.oauth2.scopes, ...scopesOf(members)])]
  return { ...connection, oauth2: { ...connection.oauth2, scopes } }
}

/**
 * The component's type prefix, e.g. `boardtool/v1`.
 *
 * @since 0.1.0
 * @category utils
 */
export const typeOf = (component: Component): string => `${component.name}/v${component.version}`

/**
 * What needs OAuth2 scopes: an action, or a trigger (whose scopes are optional).
 *
 * @since 0.3.0
 * @category models
 */
export interface Scoped {
  readonly scopes?: ReadonlyArray<string> | undefined
}

/**
 * The union of the OAuth2 scopes the given actions and triggers need, in a stable order.
 *
 * @since 0.1.0
 * @category utils
 */
export const scopesOf = (members: ReadonlyArray<Scoped>): ReadonlyArray<string> =>
  [...new Set(members.flatMap((m) => m.scopes ?? []))].sort()

// ---------------------------------------------------------------------------
// Description as JSON

const outputSchema = (schema: Schema.Schema<any, any> | undefined): unknown => {
  if (schema === undefined) return null
  try {
    return JSONSchema.make(Schema.encodedSchema(schema))
  } catch {
    return { description: "not expressible as JSON Schema" }
  }
}

/**
 * An action as plain JSON: name, title, what it does to the world (`impact`: read, write or
 * destroy) and whether repeating it is harmless (`idempotent`), props, output as JSON Schema,
 * scopes, whether it is reconcilable (it finds what an attempt cut short created), and its
 * `deprecated` (since, replacement, reason) when it is deprecated.
 *
 * @since 0.1.0
 * @category utils
 */
export const describeAction = (a: Action) => ({
  name: a.name,
  title: a.title,
  description: a.description,
  impact: a.impact,
  idempotent: a.idempotent,
  props: Property.describeAll(a.props),
  output: outputSchema(a.output),
  ...(a.scopes.length > 0 ? { scopes: a.scopes } : {}),
  // It can find what an attempt cut short created: a durable engine repeats it safely.
  ...(a.reconcile !== undefined ? { reconcilable: true } : {}),
  ...(a.deprecated !== undefined ? { deprecated: a.deprecated } : {})
})

/**
 * A trigger as plain JSON: name, title, kind (with `setup` for a static webhook), props, output
 * as JSON Schema, a polling trigger's interval, whether it offers sample data, its scopes, and
 * its `deprecated` when it is deprecated.
 *
 * @since 0.1.0
 * @category utils
 */
export const describeTrigger = (t: Trigger) => ({
  name: t.name,
  title: t.title,
  description: t.description,
  kind: t.kind,
  ...(t.kind === "STATIC_WEBHOOK" ? { setup: t.setup } : {}),
  props: Property.describeAll(t.props),
  output: outputSchema(t.output),
  ...(t.kind === "POLLING" ? { intervalMillis: Duration.toMillis(t.interval) } : {}),
  sample: t.sample !== undefined,
  ...(t.scopes !== undefined && t.scopes.length > 0 ? { scopes: t.scopes } : {}),
  ...(t.deprecated !== undefined ? { deprecated: t.deprecated } : {})
})

/**
 * The whole definition as plain JSON: what the runner prints and a UI renders.
 *
 * @since 0.1.0
 * @category utils
 */
export const describe = (component: Component) => ({
  type: typeOf(component),
  name: component.name,
  version: component.version,
  title: component.title,
  description: component.description,
  category: component.category,
  connection: Connection.describe(component.connection),
  actions: Object.values(component.actions).map(describeAction),
  triggers: Object.values(component.triggers).map(describeTrigger),
  customAction: component.customAction
})
