/**
 * The components a runner knows, and the resolution of a step's `type` to one of their
 * actions or triggers. An unknown component, version, action or trigger is an `InvalidInput`
 * that names what does exist.
 *
 * @since 0.1.0
 */
import * as Either from "effect/Either"
import type { Action } from "./Action.js"
import * as Component from "./Component.js"
import { invalidInput, type InvalidInput } from "./ConnectorError.js"
import * as Step from "./Step.js"
import type { Trigger } from "./Trigger.js"

/**
 * The components a runner knows, and the resolution of a step's type to an action or trigger.
 *
 * @since 0.1.0
 * @category models
 */
export interface Registry {
  readonly components: ReadonlyArray<Component.Component>
  readonly component: (name: string, version: number) => Either.Either<Component.Component, InvalidInput>
  readonly action: (type: string) => Either.Either<Resolved<Action>, InvalidInput>
  readonly trigger: (type: string) => Either.Either<Resolved<Trigger>, InvalidInput>
}

/**
 * An action or trigger found by its type, with its component.
 *
 * @since 0.1.0
 * @category models
 */
export interface Resolved<A> {
  readonly component: Component.Component
  readonly definition: A
}

const list = (names: ReadonlyArray<string>) => names.length === 0 ? "none" : names.join(", ")

/**
 * The registry of these components; a component registered twice (same name and version) is a defect.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (components: ReadonlyArray<Component.Component>): Registry => {
  const byName = new Map<string, Map<number, Component.Component>>()
  for (const component of components) {
    const versions = byName.get(component.name) ?? new Map<number, Component.Component>()
    if (versions.has(component.version)) throw new Error(`${Component.typeOf(component)} is registered twice`)
    versions.set(component.version, component)
    byName.set(component.name, versions)
  }
  const component = (name: string, version: number): Either.Either<Component.Component, InvalidInput> => {
    const versions = byName.get(name)
    if (versions === undefined) {
      return Either.left(invalidInput([{
        path: "type",
        message: `unknown component "${name}"; available: ${list(components.map(Component.typeOf))}`
      }]))
    }
    const found = versions.get(version)
    return found !== undefined ? Either.right(found) : Either.left(invalidInput([{
      path: "type",
      message: `${name} has no version v${version}; available: ${list([...versions.keys()].map((v) => `v${v}`))}`
    }]))
  }
  const resolve = <A>(kind: "action" | "trigger", pick: (c: Component.Component) => Readonly<Record<string, A>>) => {
    // Steps run the same few types over and over: resolve each once.
    const resolved = new Map<string, Either.Either<Resolved<A>, InvalidInput>>()
    return (type: string): Either.Either<Resolved<A>, InvalidInput> => {
      let result = resolved.get(type)
      if (result === undefined) {
        result = resolveUncached(kind, pick, type)
        if (Either.isRight(result) || resolved.size < 1000) resolved.set(type, result)
      }
      return result
    }
  }
  const resolveUncached = <A>(
    kind: "action" | "trigger",
    pick: (c: Component.Component) => Readonly<Record<string, A>>,
    type: string
  ): Either.Either<Resolved<A>, InvalidInput> =>
    Either.flatMap(Step.parseType(type), (parsed) =>
      Either.flatMap(component(parsed.component, parsed.version), (found) => {
        const definitions = pick(found)
        const definition = Object.hasOwn(definitions, parsed.action) ? definitions[parsed.action] : undefined
        return definition !== undefined ? Either.right({ component: found, definition }) : Either.left(invalidInput([{
          path: "type",
          message: `${Component.typeOf(found)} has no ${kind} "${parsed.action}"; available: ${
            list(Object.keys(definitions))
          }`
        }]))
      }))
  return {
    components,
    component,
    action: resolve("action", (c) => c.actions),
    trigger: resolve("trigger", (c) => c.triggers)
  }
}
