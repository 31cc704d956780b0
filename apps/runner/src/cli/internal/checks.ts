/**
 * What the handlers of `run` and `serve` share: the check a workflow passes once the
 * connections are known, and the file flags of a caller that gives none.
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { ConnectionValues } from "../../components/ConnectionValues.js"
import type * as FileAccess from "../../components/FileAccess.js"
import * as Errors from "../../Errors.js"
import * as Workflow from "../../workflow/Workflow.js"

/** A workflow that passed both checks (the second one needs the connections). */
export const checkWithConnections = (file: string, workflow: Workflow.Workflow, connections: ConnectionValues) => {
  const issues = Workflow.checkWithConnections(workflow, connections)
  return issues.length === 0 ? Effect.void : Effect.fail(new Errors.InvalidWorkflow({ file, issues }))
}

/** `run`'s flags when a caller gives none: the current directory, private networks refused. */
export const noFlags: FileAccess.Flags = { filesDir: Option.none(), allowPrivateNetworks: false }
