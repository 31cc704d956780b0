/**
 * `x-runner describe`: the components' definitions, or one action's or trigger's.
 *
 * @since 0.2.0
 */
import { type Action, Component, PropertyGroup } from "@x/core"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { Components } from "../../components/Components.js"
import * as ConnectionSource from "../../components/ConnectionSource.js"
import * as ConnectionValues from "../../components/ConnectionValues.js"
import * as Errors from "../../Errors.js"
import { Output } from "../../Output.js"
import { type Needs } from "../internal/shared.js"

/**
 * `describe`: prints the definitions of every component, or of one (by type or name), or of one
 * action or trigger (by step type); each action's `impact` and `idempotent` are in its JSON, and
 * one action's are said on stderr in words too. A property group's fields come from the provider: stderr
 * says how to see them (`options`). With a named connection (`--connection`): that
 * connection's component (or the type given, which must be its component), the connection
 * checked, and a line on stderr saying what it is.
 *
 * @since 0.2.0
 * @category commands
 */
export const describe = (
  wanted: Option.Option<string>,
  named?: { readonly connection: string; readonly source: ConnectionSource.ConnectionSource } | undefined
): Effect.Effect<void, Errors.RunnerError, Needs> =>
  Effect.gen(function*() {
    const { entries, executor } = yield* Components
    const output = yield* Output
    const all = entries.map((entry) => Component.describe(entry.component))
    const given = Option.getOrUndefined(wanted)
    // With a named connection: its component (the type's, else the file's entry says it), the connection checked.
    const connection = named === undefined ? undefined : yield* connectionOf(named.connection, named.source, given)
    const type = given ?? connection?.component.name
    const action = type === undefined ? undefined : Either.getOrUndefined(executor.registry.action(type))
    const trigger = type === undefined || action !== undefined ? undefined : Either.getOrUndefined(executor.registry.trigger(type))
    const chosen = type === undefined
      ? all
      : action !== undefined
      ? Component.describeAction(action.definition)
      : trigger !== undefined
      ? Component.describeTrigger(trigger.definition)
      : all.find((c) => c.type === type || c.name === type)
    if (chosen === undefined) {
      return yield* new Errors.InvalidArguments({ message: `unknown component or step type "${type}"; available: ${all.map((c) => c.type).join(", ")}` })
    }
    yield* output.out(JSON.stringify(chosen, null, 2))
    // One action: what it does to the world, in words, for the person reading (the JSON has it too).
    if (action !== undefined) yield* output.err(`${type}: ${impactLine(action.definition)}`)
    // The actions described, by step type: where one has a property group, say how to see its fields.
    const actions = action !== undefined
      ? [[type!, action.definition] as const]
      : trigger !== undefined
      ? []
      : entries.filter((e) => type === undefined || Component.typeOf(e.component) === type || e.component.name === type)
        .flatMap((e) => Object.values(e.component.actions).map((a) => [`${Component.typeOf(e.component)}/${a.name}`, a] as const))
    const using = connection === undefined ? "" : ` --connection ${connection.name}`
    for (const [stepType, definition] of actions) {
      for (const [name, group] of PropertyGroup.groupsOf(definition.props) ?? []) {
        const params = group.fields.dependsOn.map((dependency) => ` --param ${dependency}=…`).join("")
        yield* output.err(
          `${stepType}: ${name} holds fields loaded from ${group.fields.dependsOn.join(", ")}; see them with: x-runner options ${stepType} ${name}${params}${using}`
        )
      }
    }
    if (connection !== undefined) yield* output.err(connection.line)
  }).pipe(Effect.scoped)

const impactWords = {
  read: "read (it changes nothing)",
  write: "write (it creates or changes what can be changed back)",
  destroy: "destroy (it deletes, or does what cannot be taken back)"
} as const

/** `destroy (it deletes, …), not idempotent`: an action's impact, and for a write or a destroy whether repeating it is harmless. */
const impactLine = (action: Action.Action): string =>
  action.impact === "read" ? impactWords.read : `${impactWords[action.impact]}, ${action.idempotent ? "idempotent" : "not idempotent"}`

/**
 * A named connection for `describe`: its component (the type's, or the one its entry in the
 * connections file says), checked as a step naming it would be; and one line saying what it is.
 */
const connectionOf = (name: string, source: ConnectionSource.ConnectionSource, type: string | undefined) =>
  Effect.gen(function*() {
    const { entries, executor } = yield* Components
    const components = entries.map((entry) => entry.component)
    const ofType = type === undefined
      ? undefined
      : Either.getOrUndefined(Either.map(executor.registry.action(type), (found) => found.component)) ??
        Either.getOrUndefined(Either.map(executor.registry.trigger(type), (found) => found.component)) ??
        components.find((component) => Component.typeOf(component) === type || component.name === type)
    if (type !== undefined && ofType === undefined) {
      return yield* new Errors.InvalidArguments({ message: `unknown component or step type "${type}"; available: ${components.map(Component.typeOf).join(", ")}` })
    }
    const fromFile = ofType !== undefined || source.sandbox || Option.isNone(source.file)
      ? undefined
      : (yield* ConnectionValues.readFile(source.file.value)).get(name)?.["component"]
    const component = ofType ?? components.find((c) => c.name === fromFile || c.name === name)
    if (component === undefined) {
      return yield* new Errors.InvalidArguments({
        message: `describe --connection ${name}: ${
          source.sandbox || Option.isNone(source.file) ? "give a type (or a connections file whose entry says its component)" : `${source.file.value} has no connection "${name}" that says its component`
        }`
      })
    }
    const { connections, named } = yield* ConnectionSource.connect(source, [{ component, connection: name }])
    const line = source.sandbox
      ? `sandbox: ${named[0] ?? `connection "${name}" is ${component.name}'s default`}`
      : `connection "${name}": ${component.name}, at ${ConnectionValues.baseUrlOf(connections, component, name)}`
    return { name, component, line }
  })
