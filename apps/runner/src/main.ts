/**
 * x-runner: runs workflow files on the connector packages. `x-runner --help` lists the
 * commands. This is the one place where a command's end becomes the exit code: 0 every step
 * succeeded, 1 a step failed, 2 an invalid workflow, arguments or data directory.
 *
 * @since 0.2.0
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import * as NodeTerminal from "@effect/platform-node/NodeTerminal"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import { cli, examples } from "./cli/Cli.js"
import * as Errors from "./Errors.js"
import * as CliConsole from "./cli/internal/cliConsole.js"
import * as Stdio from "./internal/stdio.js"
import * as Output from "./Output.js"

/** No tracer: nothing exports spans. (The HttpClient the packages run on is provided by the commands that run them: `cli/internal/layers`.) */
const noTracer = Layer.setTracerEnabled(false)

const command = Effect.suspend(() => cli(process.argv)).pipe(
  Effect.as(0),
  Effect.catchAll((error) => {
    if (!Errors.isRunnerError(error)) return Effect.succeed(2) // @effect/cli has said what was wrong with the arguments
    const message = Errors.messageOf(error)
    return Effect.as(message === "" ? Effect.void : Output.err(message), Errors.exitCode(error))
  }),
  // Anything else still says what happened, in one line.
  Effect.catchAllDefect((defect) => Effect.as(Output.err(`x-runner: ${defect instanceof Error ? defect.message : String(defect)}`), 1))
)

/**
 * A stdout or stderr that fails ends the command, after its finalizers ran: a closed pipe (its
 * reader took what it wanted: `… | head -1`) quietly, with 0 unless the command had ended first
 * with its own code; another failure with 1, said on the other stream if that one still works.
 */
const streamFailed = Effect.flatMap(Stdio.closed, (error) =>
  Stdio.isClosedPipe(error) ? Effect.succeed(0) : Effect.as(Output.err(`x-runner: ${error.message}`), 1))

// The services the commands use: the file system, paths and the terminal (@effect/cli's), not all of
// NodeContext (its command executor and workers would load child_process and more at every start).
const main = Effect.raceFirst(command, streamFailed).pipe(
  Effect.withConsole(CliConsole.make({ name: "x-runner", commands: Object.keys(examples) })),
  Effect.provide(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer, NodeTerminal.layer, Output.layer, noTracer))
)

Stdio.guard()
NodeRuntime.runMain(main, {
  disableErrorReporting: true,
  // Stopped by SIGINT or SIGTERM (serve, connect): ended as asked, after its finalizers ran. The
  // process exits once stdout and stderr are flushed: exiting at once would cut a piped output.
  teardown: (exit, onExit) => {
    const code = Exit.isSuccess(exit) ? exit.value as number : Cause.isInterruptedOnly(exit.cause) ? 0 : 1
    process.exitCode = code
    Stdio.flushed(() => onExit(code))
  }
})
