/**
 * `x-runner options`: a property's dynamic option list, or a property group's fields.
 *
 * @since 0.2.0
 */
import { Connections, type ConnectorError, PropertyGroup } from "@x/core"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { Components } from "../../components/Components.js"
import * as ConnectionSource from "../../components/ConnectionSource.js"
import * as Errors from "../../Errors.js"
import { Output } from "../../Output.js"
import { type Needs } from "../internal/shared.js"

/**
 * `options`: loads the dynamic option list of one property, or the fields of a property group
 * (their definitions by key: title, kind, required, choices, rules).
 *
 * @since 0.2.0
 * @category commands
 */
export const options = (args: {
  readonly type: string
  readonly property: string
  readonly params: ReadonlyMap<string, string>
  readonly source: ConnectionSource.ConnectionSource
  /** A named connection of the type's component to load them with (its default when left out). */
  readonly connection?: string | undefined
}): Effect.Effect<void, Errors.RunnerError, Needs> =>
  Effect.gen(function*() {
    const { executor } = yield* Components
    const resolved = Either.orElse(executor.registry.action(args.type), () => executor.registry.trigger(args.type))
    if (Either.isLeft(resolved)) return yield* new Errors.InvalidArguments({ message: `InvalidInput: ${resolved.left.message}` })
    const { component, definition } = resolved.right
    const { connections } = yield* ConnectionSource.connect(args.source, [{ component, connection: args.connection }])
    const params = Object.fromEntries(args.params)
    const props = definition.props as Record<string, PropertyGroup.PropertyGroup | { readonly kind: string }>
    const group = Object.hasOwn(props, args.property) && props[args.property]!.kind === "GROUP"
    const load: Effect.Effect<unknown, ConnectorError.ConnectorError, Connections.Connections> = group
      ? executor.fields(args.type, args.property, params)
      : executor.options(args.type, args.property, params)
    const loaded = yield* Effect.either(load.pipe(Connections.withConnection(args.connection), Effect.provide(Connections.layer(connections))))
    if (Either.isLeft(loaded)) {
      const message = `${loaded.left._tag}: ${loaded.left.message}`
      return yield* loaded.left._tag === "InvalidInput" ? new Errors.InvalidArguments({ message }) : new Errors.StepFailed({ message })
    }
    yield* Effect.flatMap(Output, (output) => output.out(JSON.stringify(loaded.right, null, 2)))
  }).pipe(Effect.scoped)
