/**
 * The check of one step of a workflow: its name, its type, the references in its
 * parameters, and its parameters as far as they are known before it runs.
 *
 * @internal
 */
import type { Action, ConnectorError, Executor, Registry, Trigger } from "@x/core"
import { Step } from "@x/core"
import * as Either from "effect/Either"
import * as References from "../References.js"
import type { CheckedStep } from "../Workflow.js"

/**
 * Names no step may have: `inputs` and `trigger` are roots of references, the others would
 * reach into the prototype of a JavaScript object.
 */
export const reservedNames: ReadonlySet<string> = new Set(["inputs", "trigger", "__proto__", "constructor", "prototype"])

export interface CheckContext {
  readonly executor: Executor.Executor
  readonly declared: ReadonlyMap<string, unknown>
  readonly inputs: ReadonlyMap<string, unknown>
  readonly issues: Array<ConnectorError.Issue>
  /** The names of the steps checked so far. */
  readonly names: Set<string>
  /** The steps (and `trigger`) that later ones may refer to, and whether each has an output. */
  readonly known: Map<string, boolean>
  readonly allNames: ReadonlySet<string>
}

/** `${inputs.x}` references resolved; a value that refers to anything else is left as it is. */
const withInputs = (value: unknown, inputs: ReadonlyMap<string, unknown>): unknown => {
  if (typeof value === "string") {
    const references = References.referencesIn(value)
    if (references.length === 0 || references.some((r) => r.root !== "inputs")) return value
    return Either.getOrElse(References.resolve(value, new Map([["inputs", inputs]])), () => value)
  }
  if (Array.isArray(value)) return value.map((v) => withInputs(v, inputs))
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withInputs(v, inputs)]))
  }
  return value
}

const checkReferences = (context: CheckContext, key: string, value: unknown, path: string) => {
  for (const reference of References.referencesIn(value)) {
    const at = `${path}.parameters.${key}`
    if (reference.root === "inputs") {
      if (reference.path[0] === undefined || !context.declared.has(reference.path[0])) {
        context.issues.push({ path: at, message: `\${${reference.text}}: no input "${reference.path[0]}" is declared` })
      }
    } else if (!context.known.has(reference.root)) {
      const exists = context.names.has(reference.root) || context.allNames.has(reference.root)
      context.issues.push({ path: at, message: `\${${reference.text}}: "${reference.root}" is not ${exists ? "an earlier step" : "a step"}` })
    } else if (context.known.get(reference.root) === false) {
      context.issues.push({ path: at, message: `\${${reference.text}}: "${reference.root}" has no output` })
    }
  }
}

/** Checks one step, adding its problems to the context's; the checked step, when its type resolved. */
export const checkStep = (
  context: CheckContext,
  kind: "trigger" | "action",
  value: unknown,
  path: string
): CheckedStep | undefined => {
  const { issues } = context
  const step = Step.decode(value)
  if (Either.isLeft(step)) {
    for (const issue of step.left.issues) issues.push({ path: `${path}.${issue.path}`, message: issue.message })
    return undefined
  }
  const { name, parameters, type } = step.right
  if (context.names.has(name) || reservedNames.has(name)) {
    issues.push({ path: `${path}.name`, message: `"${name}" is ${context.names.has(name) ? "the name of an earlier step" : "reserved"}` })
  }
  context.names.add(name)
  // An action is prepared by the executor here, once: the run uses what the check resolved.
  const resolved: Either.Either<Registry.Resolved<Action.Action | Trigger.Trigger>, ConnectorError.InvalidInput> = kind === "action"
    ? Either.map(context.executor.prepare(step.right), (prepared) => ({ component: prepared.component, definition: prepared.action }))
    : context.executor.registry.trigger(type)
  if (Either.isLeft(resolved)) {
    for (const issue of resolved.left.issues) issues.push({ path: `${path}.type`, message: issue.message })
    return undefined
  }
  const { component, definition } = resolved.right
  for (const [key, v] of Object.entries(parameters)) checkReferences(context, key, v, path)
  // Inputs are known now, so they are put in; a parameter that still refers to a step's
  // output is checked when it runs.
  const known = withInputs(parameters, context.inputs) as Record<string, unknown>
  const dynamic = new Set(Object.keys(known).filter((k) => References.hasReference(known[k])))
  const literal = Object.fromEntries(Object.entries(known).filter(([k]) => !dynamic.has(k)))
  const reported = new Set<string>()
  const decoded: Either.Either<unknown, ConnectorError.InvalidInput> = definition.decode(literal)
  if (Either.isLeft(decoded)) {
    for (const issue of decoded.left.issues) {
      const key = issue.path.split(/[.[]/)[0]!
      if (dynamic.has(key)) continue
      reported.add(key)
      issues.push({ path: `${path}.parameters${issue.path === "" ? "" : `.${issue.path}`}`, message: issue.message })
    }
  }
  // A key that is not a property is the user's mistake, whatever its name ("__proto__" too).
  for (const key of Object.keys(known)) {
    if (!Object.hasOwn(definition.props, key) && !reported.has(key)) {
      issues.push({ path: `${path}.parameters.${key}`, message: "is not a known parameter" })
    }
  }
  const root = kind === "trigger" ? "trigger" : name
  context.known.set(root, definition.output !== undefined)
  return { prepared: { step: step.right, component, action: definition as Action.Action }, step: step.right, component, definition, parameters: known }
}
