/**
 * `serve` for a polling trigger: polls on the trigger's interval (or `--poll-interval`), from
 * the cursor stored in the database (`TriggerStore`); the first poll sets the baseline. Each new
 * event is committed as a run before the cursor moves: a stop at any point loses no event, and
 * an event polled again (its cursor not stored yet) is the same run, not run twice. With several
 * runners one polls at a time (the engine's singleton), and another takes over from the stored
 * cursor when it stops. A stored cursor that does not decode (not JSON, or not the trigger's
 * shape) is not polled from: the trigger is reported failed, naming the way out
 * (`serve --reset-cursor <workflow>`: a new baseline), and the other triggers go on.
 *
 * @since 0.2.0
 */
import { type Connections, Polling, Property, type Trigger } from "@x/core"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import { Components } from "../components/Components.js"
import { Output } from "../Output.js"
import type * as RunStore from "../store/RunStore.js"
import { type TriggerRecord, TriggerStore } from "../store/TriggerStore.js"
import type * as Workflow from "../workflow/Workflow.js"

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`

/**
 * Whether this runner polls a trigger: it started to, it stopped (the serve stops, or another
 * runner took it over), or it cannot (its stored cursor does not decode).
 *
 * @since 0.4.0
 * @category models
 */
export type PollState = "polling" | "stopped" | "failed"

/** Why a stored cursor cannot be polled from, if it cannot: not JSON, or not the trigger's shape. */
const undecodable = (record: TriggerRecord, trigger: Trigger.PollingTrigger): string | undefined => {
  if (record.unreadable.includes("cursor")) return "is not JSON"
  if (Option.isNone(record.cursor) || record.cursor.value === null) return undefined
  const decoded = Schema.decodeUnknownEither(trigger.cursor)(record.cursor.value)
  if (Either.isRight(decoded)) return undefined
  const issues = Property.issuesOf(decoded.left).map((issue) => issue.path === "" ? issue.message : `${issue.path}: ${issue.message}`)
  return `is not the shape ${trigger.name} keeps (${issues.join("; ")})`
}

/**
 * Polls the workflow's trigger until interrupted.
 *
 * @since 0.3.0
 * @category constructors
 */
export const poll = (options: {
  readonly name: string
  readonly checked: Workflow.CheckedTrigger
  readonly pollInterval?: Duration.Duration | undefined
  readonly accept: (name: string, event: { readonly id: string; readonly output: unknown }) => Effect.Effect<{ readonly fresh: boolean }, RunStore.StoreFailed>
  /** Told when this runner starts or stops polling the trigger, or cannot poll it (with why). */
  readonly report?: ((state: PollState, message?: string) => Effect.Effect<void>) | undefined
}): Effect.Effect<never, never, Components | Output | Connections.Connections | TriggerStore> =>
  Effect.gen(function*() {
    const { checked, name } = options
    const { executor } = yield* Components
    const triggers = yield* TriggerStore
    const say = (yield* Output).err
    const trigger = checked.prepared
    const type = trigger.step.type
    const interval = options.pollInterval ?? Polling.intervalOf(trigger.trigger as Trigger.PollingTrigger)

    // Read until it can be: a poll from no cursor would set a new baseline and miss events.
    const stored = yield* triggers.get(name).pipe(
      Effect.tapError((error) => say(`✘ ${error.message}; trying again`)),
      Effect.retry(Schedule.spaced("2 seconds")),
      Effect.orDie
    )
    const report = options.report ?? (() => Effect.void)
    let cursor: unknown = undefined
    if (Option.isSome(stored) && (Option.isSome(stored.value.cursor) || stored.value.unreadable.includes("cursor"))) {
      if (stored.value.type === type && JSON.stringify(stored.value.parameters) === JSON.stringify(checked.parameters)) {
        // Polling from it would fail forever (or skip what it should see): the operator decides.
        const problem = undecodable(stored.value, trigger.trigger as Trigger.PollingTrigger)
        if (problem !== undefined) {
          const message = `${name} (${type}): its stored cursor ${problem}, so it is not polled. ` +
            `Start serve with --reset-cursor ${name} to drop the cursor: its first poll then sets a new baseline (what changed since its last poll is not an event)`
          yield* say(`✘ ${message}`)
          yield* report("failed", message)
          return yield* Effect.never
        }
        cursor = Option.getOrUndefined(stored.value.cursor)
      } else yield* say("↻ the stored cursor belongs to another trigger (or other parameters): starting from a new baseline")
    }
    // A stored `null` is no cursor: its first poll is the baseline.
    yield* say(`● polling ${type} every ${Duration.format(interval)}${cursor !== undefined && cursor !== null ? ", from the stored cursor" : ""}`)
    yield* report("polling")

    const once = Effect.gen(function*() {
      const polled = yield* executor.poll(trigger, cursor)
      const baseline = cursor === undefined || cursor === null
      let accepted = 0
      for (const event of polled.events) {
        const { fresh } = yield* options.accept(name, event)
        if (fresh) accepted++
        else yield* say(`= event ${event.id} was polled again: already accepted, not run twice`)
      }
      // The cursor goes after its events: a stop in between polls them again, and they are the same runs.
      yield* triggers.polled({ workflow: name, type, parameters: checked.parameters, cursor: polled.cursor })
      cursor = polled.cursor
      yield* say(baseline ? "○ baseline set: what is there now is not an event" : `· polled: ${plural(accepted, "new event")}`)
    })
    return yield* Effect.forever(Effect.zipRight(
      Effect.catchAll(once, (error) =>
        say(`✘ the poll failed, or its events could not be kept (${error._tag}: ${error.message}); polling again in ${Duration.format(interval)}`)).pipe(
          // A defect of one poll is not the end of polling (nor a silent one).
          Effect.catchAllDefect((defect) => say(`✘ the poll failed: ${String(defect)}; polling again in ${Duration.format(interval)}`))
        ),
      Effect.sleep(interval)
    )).pipe(Effect.ensuring(report("stopped")))
  })
