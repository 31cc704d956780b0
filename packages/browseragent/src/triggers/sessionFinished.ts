import { Property, Trigger } from "@x/core"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Sessions from "../api/sessions.js"
import * as Run from "../api/run.js"
import { connection } from "../connection.js"

/** How far back the first poll looks for sessions still under way: longer than a session lives. */
const lookbackMs = 24 * 3600_000

const event = (session: Sessions.Session) => ({ id: `${session.id}/${session.status}/${session.updatedAt}`, output: session })

export const sessionFinished = Trigger.polling({
  name: "sessionFinished",
  title: "Session Finished",
  description: "Fires once for each session that ends: stopped, timed out or failed (polled: no URL to expose). " +
    "A kept-alive session idle after a task has not ended (it takes the next task): see Task Status Changed for tasks.",
  connection,
  props: {
    statuses: Property.array({
      title: "Statuses",
      description: "Only sessions ending with these (else: any end).",
      items: Property.string({ title: "Status", choices: Run.finalStatuses.map((value) => ({ label: value, value })) }),
      minItems: 1
    })
  },
  output: Sessions.Session,
  interval: "1 minute",
  // The sessions are listed newest first (by creation), and one may end long after it began:
  // each poll reads back to the oldest session still under way (`since`); `finished` holds the
  // ended ones it read, so that they fire once.
  cursor: Schema.Struct({ since: Schema.Number, finished: Schema.Array(Schema.String) }),

  poll: ({ client, cursor, params }) =>
    Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const since = cursor?.since ?? now - lookbackMs
      const read = yield* Run.sessionsSince(client, since)
      const known = new Set(cursor?.finished)
      const finished = read.filter(Run.isFinished)
      const wanted = (session: Sessions.Session) => params.statuses === undefined || (params.statuses as ReadonlyArray<string>).includes(session.status)
      const events = cursor === undefined ? [] : finished.filter((s) => !known.has(s.id) && wanted(s)).map(event)
      const open = read.filter((s) => !Run.isFinished(s)).map((s) => Date.parse(s.createdAt))
      // Next time: from the oldest session under way, else from the newest read (or where it was).
      const next = open.length > 0 ? Math.min(...open) : read.length > 0 ? Date.parse(read[0]!.createdAt) : since
      return {
        events,
        cursor: { since: next, finished: finished.filter((s) => Date.parse(s.createdAt) >= next).map((s) => s.id) }
      }
    }),

  // The latest finished sessions, among the newest 100.
  sample: ({ client, params }) =>
    Effect.map(Run.latestSessions(client, 100), (read) =>
      read.filter((s) => Run.isFinished(s) && (params.statuses === undefined || (params.statuses as ReadonlyArray<string>).includes(s.status)))
        .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)).slice(0, 5).map(event))
})
