/** Dynamic options: the sessions (every page). */
import { Choice, DynamicOptions, Pagination } from "@x/core"
import * as Effect from "effect/Effect"
import * as Sessions from "../api/sessions.js"

export const sessions = DynamicOptions.make([], ({ client }) =>
  Effect.map(Pagination.collect(Sessions.sessions(client)), (items) =>
    Choice.fromRecords(items, (s) => `${s.title ?? s.id} (${s.status})`, (s) => s.id)))
