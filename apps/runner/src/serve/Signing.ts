/**
 * Whether the webhook triggers `serve` is about to start can verify their deliveries: a trigger
 * whose provider signs them (`signedWith`) does not start without the signing secret in its
 * connection, unless the operator chose to accept unsigned deliveries
 * (`--allow-unsigned-deliveries`); then every start says so.
 *
 * @since 0.4.0
 */
import * as Effect from "effect/Effect"
import { envName } from "../components/ConnectionValues.js"
import { isRequestTrigger } from "../components/HttpComponent.js"
import { ServeProblem } from "../Errors.js"
import { Output } from "../Output.js"
import type * as Workflow from "../workflow/Workflow.js"

/** The triggers of these workflows whose signing secret is missing from their connection's values. */
const unsigned = (
  workflows: ReadonlyArray<Workflow.Workflow>,
  connections: ReadonlyMap<string, Readonly<Record<string, unknown>>>
) =>
  workflows.flatMap((workflow) => {
    const { component, prepared } = workflow.trigger!
    const definition = prepared.trigger
    const field = definition.kind === "POLLING" || definition.kind === "SCHEDULE" ? undefined : definition.signedWith
    if (field === undefined) return []
    const value = connections.get(prepared.step.connection ?? component.name)?.[field]
    return value === undefined || value === null || value === "" ? [{ type: prepared.step.type, component: component.name, field }] : []
  })

/**
 * Fails (exit 2) when a served trigger's signing secret is missing and unsigned deliveries are
 * not allowed; with them allowed, prints a warning for each such trigger at every start.
 *
 * @since 0.4.0
 * @category constructors
 */
export const check = (
  workflows: ReadonlyArray<Workflow.Workflow>,
  connections: ReadonlyMap<string, Readonly<Record<string, unknown>>>,
  allowUnsigned: boolean
): Effect.Effect<void, ServeProblem, Output> =>
  Effect.gen(function*() {
    // The HTTP trigger has no anonymous form: --allow-unsigned-deliveries does not cover it.
    const anonymous = workflows.flatMap((workflow) => {
      const { component, prepared } = workflow.trigger!
      if (!isRequestTrigger(prepared.trigger)) return []
      const name = prepared.step.connection ?? component.name
      const values = connections.get(name)
      const set = (field: string) => values?.[field] !== undefined && values[field] !== null && values[field] !== ""
      return set("token") || set("hmacSecret") ? [] : [{ type: prepared.step.type, name }]
    })
    if (anonymous.length > 0) {
      return yield* new ServeProblem({
        message: anonymous.map(({ name, type }) =>
          `${type} accepts only authenticated requests: the ${name} connection has neither a "token" nor an "hmacSecret" ` +
          `(${envName(name, "token")} or the connections file)`
        ).join("\n")
      })
    }
    const missing = unsigned(workflows, connections)
    const say = (yield* Output).err
    if (!allowUnsigned) {
      if (missing.length === 0) return
      return yield* new ServeProblem({
        message: missing.map(({ component, field, type }) =>
          `${type} verifies deliveries with the ${component} connection's "${field}" (${envName(component, field)} or the connections file): none is set. ` +
          "Set it, or pass --allow-unsigned-deliveries to accept unsigned deliveries"
        ).join("\n")
      })
    }
    for (const { component, field, type } of missing) {
      yield* say(
        `⚠ ${type} accepts unsigned deliveries (--allow-unsigned-deliveries): the ${component} connection has no "${field}", ` +
          "so anyone who can reach its URL can run the workflow"
      )
    }
    if (missing.length === 0) yield* say("⚠ --allow-unsigned-deliveries: every trigger here has its signing secret, so deliveries must still be signed")
  })
