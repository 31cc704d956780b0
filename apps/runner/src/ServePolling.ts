/**
 * `serve` for a polling trigger: polls on the trigger's interval (or `--poll-interval`), from
 * the cursor a previous run stored; the first poll sets the baseline. Each new event is
 * written to the journal before it runs, and the cursor (`cursor.json`, 0600) only once the
 * poll's events are on disk: a stop at any point loses no event, and an event polled again
 * (its cursor not stored yet) is recognised by its id and not run twice.
 *
 * @since 0.2.0
 */
import type * as FileSystem from "@effect/platform/FileSystem"
import type * as Path from "@effect/platform/Path"
import { type Connections, Polling } from "@x/core"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Components } from "./Components.js"
import { type DamagedData, ServeProblem } from "./Errors.js"
import * as EventWorker from "./internal/eventWorker.js"
import { Output } from "./Output.js"
import type { ServeOptions } from "./Serve.js"
import * as TriggerState from "./TriggerState.js"

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`

/**
 * Serves the workflow's polling trigger until interrupted.
 *
 * @since 0.2.0
 * @category constructors
 */
export const serve = (
  options: ServeOptions
): Effect.Effect<never, ServeProblem | DamagedData, Components | Output | Connections.Connections | FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function*() {
    const { dataDir, workflow } = options
    const { executor } = yield* Components
    const say = (yield* Output).err
    const checked = workflow.trigger
    const definition = checked?.prepared.trigger
    if (checked === undefined || definition?.kind !== "POLLING") {
      return yield* new ServeProblem({ message: "the workflow has no polling trigger to serve" })
    }
    const trigger = checked.prepared
    const type = trigger.step.type
    const interval = options.pollInterval ?? Polling.intervalOf(definition)

    const { accept, journal, start } = yield* EventWorker.open(dataDir, workflow, executor, say)
    const stored = yield* TriggerState.readCursor(dataDir, type, checked.parameters)
    if (stored.replaced) yield* say("↻ the stored cursor belongs to another trigger (or other parameters): starting from a new baseline")

    const keep = (poll: Polling.Poll) =>
      Effect.gen(function*() {
        let accepted = 0
        for (const event of poll.events) {
          if (journal.seen(event.id)) {
            yield* say(`= event ${event.id} was polled again: already accepted, not run twice`)
            continue
          }
          yield* accept(event)
          accepted++
        }
        // The cursor goes after its events: a stop in between polls them again, and their ids
        // are in the journal.
        yield* TriggerState.writeCursor(dataDir, { type, parameters: checked.parameters, cursor: poll.cursor })
        yield* say(poll.baseline ? "○ baseline set: what is there now is not an event" : `· polled: ${plural(accepted, "new event")}`)
      })

    yield* start
    yield* say(`● polling ${type} every ${Duration.format(interval)}${Option.isSome(stored.cursor) ? ", from the stored cursor" : ""}`)
    return yield* Polling.run(executor, trigger, {
      cursor: Option.getOrUndefined(stored.cursor),
      interval,
      onPoll: keep,
      onFailure: (error) =>
        say(`✘ the poll failed, or its events could not be kept (${error._tag}: ${error.message}); ` +
          `polling again in ${Duration.format(interval)}`)
    }).pipe(Effect.mapError((error) => new ServeProblem({ message: `${type} cannot be polled: ${error.message}` })))
  }).pipe(Effect.scoped)
