/**
 * The runner's own component `schedule`: its trigger `cron` fires on the ticks of a cron
 * expression in a time zone, computed with Effect's `Cron` (no provider, no account). `serve`
 * keeps it (`engine/ScheduleTrigger.ts`); `sample` lists its next five ticks.
 *
 * @since 0.7.0
 */
import { Auth, Component, Connection, Property, Trigger } from "@x/core"
import * as Cron from "effect/Cron"
import * as Either from "effect/Either"

/** A cron and its time zone, parsed; the check refuses what does not parse, so run time cannot meet one. */
const cronOf = (params: { readonly cron: string; readonly timezone: string }): Cron.Cron =>
  Either.getOrThrow(Cron.parse(params.cron, params.timezone))

/**
 * The first tick after `after`. Effect's `Cron.next` asked from inside a local hour that occurs
 * twice (autumn's change) answers a time before it (it treats that hour's second pass as
 * absent): asked again a minute later each time, until the answer is after `after`.
 *
 * @since 0.7.0
 * @category utils
 */
export const tickAfter = (cron: Cron.Cron, after: Date): Date => {
  let from = after
  for (let i = 0; i <= 120; i++) {
    const tick = Cron.next(cron, from)
    if (tick.getTime() > after.getTime()) return tick
    from = new Date(from.getTime() + 60_000)
  }
  throw new Error(`no tick after ${after.toISOString()}`)
}

const cron = Trigger.schedule({
  name: "cron",
  title: "On a schedule",
  description: "Fires on each tick of a cron expression in a time zone (Effect's Cron). " +
    "Each tick is one run, keyed by its time: once across restarts and across several runners. " +
    "Its output: scheduledAt (when the tick was due) and firedAt (when it fired), ISO 8601 in UTC.",
  props: {
    cron: Property.string({
      title: "Cron expression",
      description: "Five fields (minute hour day-of-month month day-of-week, e.g. \"0 9 * * 1\": Mondays at 9:00) " +
        "or six, seconds first (\"*/10 * * * * *\": every 10 seconds)",
      required: true,
      minLength: 1
    }),
    timezone: Property.string({
      title: "Time zone",
      description: "The IANA time zone the fields are read in (e.g. \"Europe/Berlin\"). A local time that a daylight-saving " +
        "change skips fires that much later (02:30 on the spring change's day fires at 03:30); one that occurs twice fires once, at the first",
      defaultValue: "UTC"
    }),
    missed: Property.string({
      title: "Missed ticks",
      description: "The ticks that came due while nothing served the workflow: skip them, or run the newest of them once (runLast) at start",
      choices: [{ label: "Skip them", value: "skip" }, { label: "Run the newest once", value: "runLast" }],
      defaultValue: "skip"
    })
  },
  validate: (params) => {
    const parsed = Cron.parse(params.cron, params.timezone ?? "UTC")
    if (Either.isLeft(parsed)) {
      return parsed.left.message.includes("time zone")
        ? [{ path: "timezone", message: `is not an IANA time zone (such as "Europe/Berlin" or "UTC")` }]
        : [{ path: "cron", message: `is not a cron expression of five or six fields: ${parsed.left.message}` }]
    }
    try {
      tickAfter(parsed.right, new Date(0))
      return []
    } catch {
      return [{ path: "cron", message: "never comes due (no date matches it)" }]
    }
  },
  cron: (params) => cronOf({ cron: params.cron, timezone: params.timezone ?? "UTC" }),
  missed: (params) => params.missed ?? "skip"
})

/**
 * The component: no account, so its connection has no field to fill.
 *
 * @since 0.7.0
 * @category components
 */
export const schedule = Component.make({
  name: "schedule",
  version: 1,
  title: "Schedule",
  description: "Starts a workflow on a schedule: the ticks of a cron expression in a time zone",
  category: "Core",
  connection: Connection.custom({
    title: "None",
    description: "A schedule needs no account",
    props: {},
    client: { defaultBaseUrl: "http://127.0.0.1/" },
    authenticate: () => ({ credentials: Auth.none })
  }),
  actions: [],
  triggers: [cron]
})
