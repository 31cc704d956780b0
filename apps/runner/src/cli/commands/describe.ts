/**
 * `x-runner describe`: the components' definitions, or one action's or trigger's.
 *
 * @since 0.2.0
 */
import { Args, Command } from "@effect/cli"
import { Component, PropertyGroup } from "@x/core"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { Components, layer as components } from "../../components/Components.js"
import * as Errors from "../../Errors.js"
import { Output } from "../../Output.js"

/**
 * Its examples, in its help and the root's.
 *
 * @since 0.2.0
 * @category constants
 */
export const examples = ["$ x-runner describe boardtool/v1", "$ x-runner describe sitebuilder/v1/createCollectionItem"] as const

/**
 * `describe`: prints the definitions of every component, or of one (by type or name), or of one
 * action or trigger (by step type). A property group's fields come from the provider: stderr
 * says how to see them (`options`).
 *
 * @since 0.2.0
 * @category commands
 */
export const describe = (wanted: Option.Option<string>): Effect.Effect<void, Errors.InvalidArguments, Components | Output> =>
  Effect.gen(function*() {
    const { entries, executor } = yield* Components
    const output = yield* Output
    const all = entries.map((entry) => Component.describe(entry.component))
    const type = Option.getOrUndefined(wanted)
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
    // The actions described, by step type: where one has a property group, say how to see its fields.
    const actions = action !== undefined
      ? [[type!, action.definition] as const]
      : trigger !== undefined
      ? []
      : entries.filter((e) => type === undefined || Component.typeOf(e.component) === type || e.component.name === type)
        .flatMap((e) => Object.values(e.component.actions).map((a) => [`${Component.typeOf(e.component)}/${a.name}`, a] as const))
    for (const [stepType, definition] of actions) {
      for (const [name, group] of PropertyGroup.groupsOf(definition.props) ?? []) {
        const params = group.fields.dependsOn.map((dependency) => ` --param ${dependency}=…`).join("")
        yield* output.err(`${stepType}: ${name} holds fields loaded from ${group.fields.dependsOn.join(", ")}; see them with: x-runner options ${stepType} ${name}${params}`)
      }
    }
  })

/**
 * The `describe` command: its arguments and options, parsed, then the handler above.
 *
 * @since 0.2.0
 * @category commands
 */
export const command = Command.make("describe", {
  type: Args.text({ name: "type" }).pipe(
    Args.withDescription(
      "A component's type or name (e.g. boardtool/v1 or boardtool), or an action's or trigger's type; all components when left out"
    ),
    Args.optional
  )
}, ({ type }) => describe(type).pipe(Effect.provide(components()))).pipe(
  Command.withDescription("Print the components' definitions (actions, triggers, properties) as JSON, or one action's or trigger's")
)
