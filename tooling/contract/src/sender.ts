/** What sent the requests a contract test records: set around each case, read by `recording`. */
import type { Action } from "@x/core"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"

/**
 * What sent a request: an action, an options list or a trigger, named for a finding, and its
 * deprecation when it is marked deprecated.
 */
export interface Sender {
  /** E.g. `action sitebuilder/v1/listUsers`, `options userId of sitebuilder/v1/getUser`. */
  readonly label: string
  readonly deprecated?: Action.Deprecation | undefined
  /**
   * The action or trigger it belongs to, by name, and how it was sending: what `operationsSent`
   * groups the requests by (an options list's requests are not its action's or trigger's own).
   */
  readonly member?: Member | undefined
}

/** An action run, or a trigger enabled, disabled, polled or sampled; or either's options list loaded. */
export interface Member {
  readonly kind: "action" | "trigger"
  readonly name: string
  readonly via: "run" | "options" | TriggerPhase
}

/** What a trigger is asked to do, each sending its own requests. */
export type TriggerPhase = "enable" | "disable" | "poll" | "sample"

/** The sender of the requests sent within an effect: set by `sentBy`, read by `recording`. */
export const currentSender: FiberRef.FiberRef<Sender | undefined> = FiberRef.unsafeMake<Sender | undefined>(undefined)

/** Runs an effect as sent by `sender`: each request it sends is recorded with it. */
export const sentBy = (sender: Sender) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.locally(effect, currentSender, sender)
