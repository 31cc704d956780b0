/**
 * `serve` for a polling trigger: polls on the trigger's interval (or `--poll-interval`), from
 * the cursor a previous run stored; the first poll sets the baseline. Each new event is
 * committed as a run before the cursor moves (`cursor.json`, 0600, in the trigger's state
 * directory): a stop at any point loses no event, and an event polled again (its cursor not
 * stored yet) is the same run, not run twice.
 *
 * @since 0.2.0
 */
import type * as FileSystem from "@effect/platform/FileSystem"
import type * as Path from "@effect/platform/Path"
import { type Connections, Polling, type Trigger } from "@x/core"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import { Components } from "./Components.js"
import type { DamagedData } from "./Errors.js"
import { Output } from "./Output.js"
import type * as RunStore from "./RunStore.js"
import * as TriggerState from "./TriggerState.js"
import type * as Workflow from "./Workflow.js"

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`

/**
 * Starts polling the workflow's trigger; it polls until the scope closes.
 *
 * @since 0.3.0
 * @category constructors
 */
export const poll = (options: {
  readonly name: string
  readonly checked: Workflow.CheckedTrigger
  readonly stateDir: string
  readonly pollInterval?: Duration.Duration | undefined
  readonly accept: (name: string, event: { readonly id: string; readonly output: unknown }) => Effect.Effect<{ readonly fresh: boolean }, RunStore.StoreFailed>
}): Effect.Effect<void, DamagedData, Components | Output | Connections.Connections | FileSystem.FileSystem | Path.Path | Scope.Scope> =>
  Effect.gen(function*() {
    const { checked, name, stateDir } = options
    const { executor } = yield* Components
    const say = (yield* Output).err
    const trigger = checked.prepared
    const type = trigger.step.type
    const interval = options.pollInterval ?? Polling.intervalOf(trigger.trigger as Trigger.PollingTrigger)

    yield* TriggerState.makeDataDir(stateDir)
    const stored = yield* TriggerState.readCursor(stateDir, type, checked.parameters)
    if (stored.replaced) yield* say("↻ the stored cursor belongs to another trigger (or other parameters): starting from a new baseline")

    const keep = (poll: Polling.Poll) =>
      Effect.gen(function*() {
        let accepted = 0
        for (const event of poll.events) {
          const { fresh } = yield* options.accept(name, event)
          if (fresh) accepted++
          else yield* say(`= event ${event.id} was polled again: already accepted, not run twice`)
        }
        // The cursor goes after its events: a stop in between polls them again, and they are
        // the same runs.
        yield* TriggerState.writeCursor(stateDir, { type, parameters: checked.parameters, cursor: poll.cursor })
        yield* say(poll.baseline ? "○ baseline set: what is there now is not an event" : `· polled: ${plural(accepted, "new event")}`)
      })

    yield* say(`● polling ${type} every ${Duration.format(interval)}${Option.isSome(stored.cursor) ? ", from the stored cursor" : ""}`)
    yield* Polling.run(executor, trigger, {
      cursor: Option.getOrUndefined(stored.cursor),
      interval,
      onPoll: keep,
      onFailure: (error) =>
        say(`✘ the poll failed, or its events could not be kept (${error._tag}: ${error.message}); ` +
          `polling again in ${Duration.format(interval)}`)
    }).pipe(
      Effect.catchAll((error) => say(`✘ ${type} cannot be polled: ${error.message}`)),
      Effect.forkScoped
    )
  })
