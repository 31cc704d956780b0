/**
 * Runs every request a component can send, from one table of example parameters: each action,
 * each dynamic option list of its properties, and each trigger (enabled and disabled, polled
 * twice, sampled, as its kind allows), in the table's order (the component lists its members by
 * name: the table puts what deletes after what uses it). A component member missing from the
 * table is reported, so a new action cannot go unchecked; a case naming no member fails. Each request is sent as its action's or trigger's
 * (`sentBy`), so that `Contract.check` knows whether a deprecated operation's sender is
 * deprecated too (an options list is its action's or trigger's).
 */
import type { Action, Component, Connections, ConnectorError, Executor } from "@x/core"
import * as Effect from "effect/Effect"
import { type Member, sentBy } from "./sender.js"

type Params = Readonly<Record<string, unknown>>

export interface Cases {
  /**
   * Each action's example parameters (its dynamic options are loaded with them too), run in this
   * order; a function is called when its turn comes (to name what an earlier case made).
   */
  readonly actions: Readonly<Record<string, Params | (() => Params)>>
  /** Each trigger's example parameters, run in this order, after the actions. */
  readonly triggers: Readonly<Record<string, Params | (() => Params)>>
}

const paramsOf = (params: Params | (() => Params)) => typeof params === "function" ? params() : params

/** What `exercise` reads of an action (a component's actions are typed by name, not as one record). */
interface CaseAction {
  readonly name: string
  readonly props: Readonly<Record<string, { readonly dynamicOptions?: unknown }>>
  readonly deprecated?: Action.Deprecation | undefined
}

const step = (type: string, parameters: Params) => ({ label: "contract", name: "contract", type, parameters })

/** Fails with the step's type when a case fails: the table, or the simulator, is wrong. */
const named = <A>(type: string, effect: Effect.Effect<A, ConnectorError.ConnectorError, Connections.Connections>) =>
  Effect.mapError(effect, (error) => new Error(`${type}: ${error._tag}: ${error.message}`))

export const exercise = (
  executor: Executor.Executor,
  component: Component.Component,
  cases: Cases,
  webhookUrl: string
): Effect.Effect<{ readonly missing: ReadonlyArray<string> }, Error, Connections.Connections> =>
  Effect.gen(function*() {
    const prefix = `${component.name}/v${component.version}`
    const actions = component.actions as Readonly<Record<string, CaseAction>>
    const unknown = [
      ...Object.keys(cases.actions).filter((name) => !Object.hasOwn(actions, name)).map((name) => `action ${name}`),
      ...Object.keys(cases.triggers).filter((name) => !Object.hasOwn(component.triggers, name)).map((name) => `trigger ${name}`)
    ]
    if (unknown.length > 0) return yield* Effect.fail(new Error(`${prefix} has no ${unknown.join(", ")}: the table names it`))
    const missing = [
      ...Object.keys(actions).filter((name) => !Object.hasOwn(cases.actions, name)).map((name) => `action ${name}`),
      ...Object.keys(component.triggers).filter((name) => !Object.hasOwn(cases.triggers, name)).map((name) => `trigger ${name}`)
    ]
    for (const [name, example] of Object.entries(cases.actions)) {
      const action = actions[name]!
      const params = paramsOf(example)
      const type = `${prefix}/${action.name}`
      const as = (label: string, via: Member["via"]) => sentBy({ label, deprecated: action.deprecated, member: { kind: "action", name, via } })
      for (const [property, definition] of Object.entries(action.props)) {
        if (definition.dynamicOptions !== undefined) {
          yield* named(`${type} options ${property}`, executor.options(type, property, params)).pipe(as(`options ${property} of action ${type}`, "options"))
        }
      }
      yield* named(type, executor.run(step(type, params))).pipe(as(`action ${type}`, "run"))
    }
    for (const [name, example] of Object.entries(cases.triggers)) {
      const trigger = component.triggers[name]!
      const params = paramsOf(example)
      const type = `${prefix}/${trigger.name}`
      const prepared = executor.prepareTrigger(step(type, params))
      if (prepared._tag === "Left") return yield* Effect.fail(new Error(`${type}: ${prepared.left.message}`))
      const as = (label: string, via: Member["via"]) => sentBy({ label, deprecated: trigger.deprecated, member: { kind: "trigger", name, via } })
      for (const [property, definition] of Object.entries<{ dynamicOptions?: unknown }>(trigger.props)) {
        if (definition.dynamicOptions !== undefined) {
          yield* named(`${type} options ${property}`, executor.options(type, property, params)).pipe(as(`options ${property} of trigger ${type}`, "options"))
        }
      }
      if (trigger.kind === "DYNAMIC_WEBHOOK") {
        const state = yield* named(`${type} enable`, executor.enableTrigger(prepared.right, webhookUrl)).pipe(as(`trigger ${type} (enable)`, "enable"))
        yield* named(`${type} disable`, executor.disableTrigger(prepared.right, state)).pipe(as(`trigger ${type} (disable)`, "disable"))
      } else if (trigger.kind === "POLLING") {
        const first = yield* named(`${type} poll`, executor.poll(prepared.right, undefined)).pipe(as(`trigger ${type} (poll)`, "poll"))
        yield* named(`${type} poll`, executor.poll(prepared.right, first.cursor)).pipe(as(`trigger ${type} (poll)`, "poll"))
      }
      if (trigger.sample !== undefined) yield* named(`${type} sample`, executor.sample(prepared.right)).pipe(as(`trigger ${type} (sample)`, "sample"))
    }
    return { missing }
  })
