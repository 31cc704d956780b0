/**
 * What happens before a request that creates or changes something is sent. A workflow engine
 * that journals each step's result repeats a step cut short by a crash; a read repeated is
 * harmless, a create may not be: it may have reached the provider before the crash. So, before
 * the first attempt of every request that is not idempotent (`POST`, `PATCH`, unless the
 * request says otherwise), `ProviderClient.send` calls the guard in context, which records
 * (durably) that a write may be sent; a step found later with that record and no result is
 * then reconciled (`Action.reconcile`) or reported, never blindly repeated. If the guard fails,
 * the request is not sent and the step fails with its error.
 *
 * By default there is no guard, and a request pays nothing for it.
 *
 * @since 0.2.0
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { ConnectorError } from "./ConnectorError.js"

/**
 * The request about to be sent: its method and path (without the query), never its body.
 *
 * @since 0.2.0
 * @category models
 */
export interface Write {
  readonly method: string
  readonly path: string
}

/**
 * A guard: called before each write's first attempt.
 *
 * @since 0.2.0
 * @category models
 */
export interface Guard {
  readonly beforeWrite: (write: Write) => Effect.Effect<void, ConnectorError>
}

/**
 * The guard in context; `undefined` (the default) for none.
 *
 * @since 0.2.0
 * @category services
 */
export class WriteGuard extends Context.Reference<WriteGuard>()("@x/core/WriteGuard", {
  defaultValue: (): Guard | undefined => undefined
}) {}
