/**
 * What `serve` does with events, whatever the trigger's kind: the data directory and its
 * journal, events accepted into it (on disk before they count as received), and the one
 * worker that runs the tasks once per event, in the order they were accepted. Events a stop
 * left unfinished are queued first.
 *
 * @internal
 */
import type * as FileSystem from "@effect/platform/FileSystem"
import type * as Path from "@effect/platform/Path"
import type { Connections, Executor } from "@x/core"
import * as Effect from "effect/Effect"
import * as Queue from "effect/Queue"
import type * as Scope from "effect/Scope"
import type { DamagedData } from "../Errors.js"
import * as Journal from "../Journal.js"
import * as Run from "../Run.js"
import * as TriggerState from "../TriggerState.js"
import type * as Workflow from "../Workflow.js"

export interface EventWorker {
  readonly journal: Journal.Journal
  /** Writes the event to the journal and queues it, not cut short: an event on disk is also queued to run. */
  readonly accept: (event: Journal.Event) => Effect.Effect<void, Journal.JournalWriteFailed>
  /** Starts the worker (once the trigger is ready); it stops with the scope. */
  readonly start: Effect.Effect<void, never, Scope.Scope | Connections.Connections>
}

const mark = (status: Run.StepResult["status"]) => status === "succeeded" ? "✔" : status === "failed" ? "✘" : "–"

export const open = (
  dataDir: string,
  workflow: Workflow.Workflow,
  executor: Executor.Executor,
  say: (line: string) => Effect.Effect<void>,
  /** Told of each run's end (`run --serve` waits on it). */
  finished: (event: Journal.Event, result: Run.RunResult) => Effect.Effect<void> = () => Effect.void
): Effect.Effect<EventWorker, DamagedData, FileSystem.FileSystem | Path.Path | Scope.Scope> =>
  Effect.gen(function*() {
    yield* TriggerState.makeDataDir(dataDir)
    const journal = yield* Journal.open(dataDir)
    const events = yield* Queue.unbounded<Journal.Event>()
    for (const event of journal.unfinished) {
      yield* say(`↻ event ${event.id} was accepted before a stop and not finished: it runs once the trigger is ready`)
      yield* Queue.offer(events, event)
    }
    const runOne = (event: Journal.Event) =>
      Effect.gen(function*() {
        yield* say(`▶ event ${event.id}`)
        const result = yield* Run.run(executor, workflow, {
          started: () => Effect.void,
          finished: (step) =>
            say(`  ${mark(step.status)} ${step.name} ${step.status}${step.error === undefined ? "" : `: ${step.error.tag}: ${step.error.message}`}`)
        }, event.output)
        // Not waited for: a run whose record is lost runs again at the next start, which
        // steps (at least once) allow; the next run need not wait for the disk.
        yield* Effect.forkDaemon(Effect.catchAll(journal.finish(event.id, result.status), (error) =>
          say(`✘ event ${event.id} could not be recorded as finished (it runs again at the next start): ${error.message}`)))
        yield* say(`■ event ${event.id} ${result.status}`)
        yield* finished(event, result)
      })
    return {
      journal,
      accept: (event) => Effect.uninterruptible(Effect.zipRight(journal.accept(event), Queue.offer(events, event))),
      start: Effect.asVoid(Effect.forkScoped(Effect.forever(Effect.flatMap(Queue.take(events), runOne))))
    }
  })
