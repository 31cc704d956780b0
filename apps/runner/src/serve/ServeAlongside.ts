/**
 * `run --sandbox --serve <trigger workflow>`: a trigger workflow served in the same process as
 * the run, against the same simulators. The sandbox's simulators live in the runner's process,
 * so a `serve` in another process could not see what a `run` does; here the trigger is enabled
 * on a local URL (`http://127.0.0.1:<free port>/hooks/<trigger name>`) as `serve` enables it,
 * the simulator's signed deliveries are received, verified and journaled by `Serve` itself (in
 * a temporary data directory), and each event's run is reported. `run` waits for the first.
 *
 * @since 0.3.0
 */
import * as FileSystem from "@effect/platform/FileSystem"
import type * as Path from "@effect/platform/Path"
import type { Connections } from "@x/core"
import type * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import type * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import type * as Scope from "effect/Scope"
import { createServer } from "node:net"
import type { Components } from "../components/Components.js"
import { type DamagedData, ServeProblem } from "../Errors.js"
import { Output } from "../Output.js"
import type * as Interpreter from "../engine/Interpreter.js"
import type * as ConnectionValues from "../components/ConnectionValues.js"
import type * as Workflow from "../workflow/Workflow.js"

/**
 * One event of the served trigger, and the run of its workflow.
 *
 * @since 0.3.0
 * @category models
 */
export interface Fired {
  readonly event: { readonly id: string }
  readonly result: Interpreter.RunResult
}

/**
 * The trigger being served: its step type and where it listens, the next event's run (none
 * within the time given), and the stop (the trigger disabled, as `serve` disables it).
 *
 * @since 0.3.0
 * @category models
 */
export interface Served {
  readonly type: string
  readonly url: string
  readonly next: (within: Duration.DurationInput) => Effect.Effect<Option.Option<Fired>>
  readonly stop: Effect.Effect<void>
}

/** A port free on 127.0.0.1 a moment ago: the trigger's URL is registered before its server listens. */
const freePort = Effect.async<number, ServeProblem>((resume) => {
  const server = createServer()
  server.once("error", (error) => resume(Effect.fail(new ServeProblem({ message: `no free local port: ${error.message}` }))))
  server.listen(0, "127.0.0.1", () => {
    const { port } = server.address() as { port: number }
    server.close(() => resume(Effect.succeed(port)))
  })
})

/**
 * Serves the workflow's (dynamic webhook) trigger until `stop` or the scope's end; returns once
 * the trigger is enabled. Its lines go to stderr prefixed `[trigger]`.
 *
 * @since 0.3.0
 * @category constructors
 */
export const start = (options: {
  readonly workflow: Workflow.Workflow
  /** Its file: the engine's thread reads and checks it again. */
  readonly file: string
  readonly connections: ConnectionValues.ConnectionValues
  readonly rateLimits: boolean
  /** The run's opened connections: deliveries are handled with them. */
  readonly opened: Context.Context<Connections.Connections>
}): Effect.Effect<Served, ServeProblem | DamagedData, Components | Output | FileSystem.FileSystem | Path.Path | Scope.Scope> =>
  Effect.gen(function*() {
    const { workflow } = options
    const fs = yield* FileSystem.FileSystem
    const output = yield* Output
    const port = yield* freePort
    const url = `http://127.0.0.1:${port}/hooks/${encodeURIComponent(workflow.trigger!.step.name)}`
    const dataDir = yield* Effect.mapError(
      fs.makeTempDirectoryScoped({ prefix: "x-runner-trigger-" }),
      (error) => new ServeProblem({ message: `no temporary directory for the trigger's journal: ${error.message}` })
    )
    const ready = yield* Deferred.make<void>()
    const fired = yield* Queue.unbounded<Fired>()
    const Serve = yield* Effect.promise(() => import("./Serve.js"))
    const fiber = yield* Serve.serve({
      workflows: [{ name: workflow.trigger!.step.name, file: options.file, workflow, publicUrl: new URL(url) }],
      inputs: new Map(),
      connections: options.connections,
      rateLimits: options.rateLimits,
      version: "",
      port,
      dataDir,
      ready: Deferred.succeed(ready, undefined),
      finished: (run, result) => Queue.offer(fired, { event: { id: run.eventId }, result })
    }).pipe(
      Effect.provide(options.opened),
      Effect.provideService(Output, { out: output.out, err: (line) => output.err(`[trigger] ${line}`) }),
      Effect.forkScoped
    )
    // Enabled, or failed to start (a port taken meanwhile, the provider refusing the webhook).
    yield* Effect.raceFirst(Deferred.await(ready), Fiber.join(fiber))
    return {
      type: workflow.trigger!.step.type,
      url,
      next: (within: Duration.DurationInput) => Effect.timeoutOption(Queue.take(fired), within),
      stop: Effect.asVoid(Fiber.interrupt(fiber))
    }
  }).pipe(
    // The port was free a moment before the server listened: another process may have taken it
    // meanwhile. Then the trigger is served on another (nothing was enabled on that one).
    Effect.retry({ times: 3, while: (error) => error._tag === "ServeProblem" && / is in use$/.test(error.message) })
  )
