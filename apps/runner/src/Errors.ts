/**
 * Why a command ends without success. Each is a tagged error; `exitCode` (the one place that
 * maps them) turns them into the process's exit code: 1 when a step failed, 2 when the
 * workflow, the arguments or the runner's files cannot be used (nothing was run).
 *
 * @since 0.2.0
 */
import type { ConnectorError } from "@x/core"
import * as Data from "effect/Data"

/**
 * An argument that cannot be used (a URL that is not one, a flag without the one it needs).
 *
 * @since 0.2.0
 * @category errors
 */
export class InvalidArguments extends Data.TaggedError("InvalidArguments")<{ readonly message: string }> {}

/**
 * A workflow file that cannot be read or is not a valid workflow; every problem with its path.
 *
 * @since 0.2.0
 * @category errors
 */
export class InvalidWorkflow extends Data.TaggedError("InvalidWorkflow")<{
  readonly file: string
  readonly issues: ReadonlyArray<ConnectorError.Issue>
}> {}

/**
 * A connection that is missing, unreadable or incomplete; the message says where to put it.
 *
 * @since 0.2.0
 * @category errors
 */
export class ConnectionProblem extends Data.TaggedError("ConnectionProblem")<{ readonly message: string }> {}

/**
 * A file of the data directory that the runner did not write as it is (a damaged journal, a
 * corrupt trigger state): the runner refuses to start rather than lose or repeat an event.
 *
 * @since 0.2.0
 * @category errors
 */
export class DamagedData extends Data.TaggedError("DamagedData")<{ readonly file: string; readonly message: string }> {}

/**
 * `serve` could not start or keep serving (the port is taken, the trigger cannot be enabled).
 *
 * @since 0.2.0
 * @category errors
 */
export class ServeProblem extends Data.TaggedError("ServeProblem")<{ readonly message: string }> {}

/**
 * The OAuth2 flow of `connect` did not end with a stored token.
 *
 * @since 0.2.0
 * @category errors
 */
export class ConnectProblem extends Data.TaggedError("ConnectProblem")<{ readonly message: string }> {}

/**
 * A step (or the option list asked for) failed; its report is printed already.
 *
 * @since 0.2.0
 * @category errors
 */
export class StepFailed extends Data.TaggedError("StepFailed")<{ readonly message: string }> {}

/**
 * The class of every error a command ends with: the one list `RunnerError` and `isRunnerError`
 * are derived from, so that an error added here is recognized (and needs its exit code below).
 *
 * @since 0.2.0
 * @category models
 */
export const classes = [
  InvalidArguments,
  InvalidWorkflow,
  ConnectionProblem,
  DamagedData,
  ServeProblem,
  ConnectProblem,
  StepFailed
] as const

/**
 * Every error a command ends with.
 *
 * @since 0.2.0
 * @category models
 */
export type RunnerError = InstanceType<typeof classes[number]>

/**
 * Whether a value is one of the runner's errors (else it came from @effect/cli, which has
 * printed it already).
 *
 * @since 0.2.0
 * @category refinements
 */
export const isRunnerError = (u: unknown): u is RunnerError => classes.some((Class) => u instanceof Class)

/**
 * The exit code of a command that ended with this error.
 *
 * @since 0.2.0
 * @category utils
 */
export const exitCode = (error: RunnerError): 1 | 2 => {
  switch (error._tag) {
    case "StepFailed":
      return 1
    case "InvalidArguments":
    case "InvalidWorkflow":
    case "ConnectionProblem":
    case "DamagedData":
    case "ServeProblem":
    case "ConnectProblem":
      return 2
  }
}

/**
 * What to print on stderr for this error ("" when the command printed its report already).
 *
 * @since 0.2.0
 * @category utils
 */
export const messageOf = (error: RunnerError): string =>
  error._tag === "InvalidWorkflow"
    ? [`${error.file} is not a valid workflow; nothing was run:`, ...error.issues.map((i) => `  ${i.path === "" ? "(file)" : i.path}: ${i.message}`)].join("\n")
    : error.message

/**
 * The error as the issues of an invalid run (`--output json`).
 *
 * @since 0.2.0
 * @category utils
 */
export const issuesOf = (error: RunnerError): ReadonlyArray<ConnectorError.Issue> =>
  error._tag === "InvalidWorkflow" ? error.issues : error.message.split("\n").map((message) => ({ path: "", message }))
