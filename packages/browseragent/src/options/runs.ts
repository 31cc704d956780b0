/** Dynamic options: the V4 runs and the V4 sessions (every page). */
import { Choice, DynamicOptions, Pagination } from "@x/core"
import * as Effect from "effect/Effect"
import * as Queue from "../api/queue.js"
import * as Runs from "../api/runs.js"

const label = (text: string) => (text.length > 60 ? `${text.slice(0, 59)}…` : text)

export const runs = DynamicOptions.make([], ({ client }) =>
  Effect.map(Pagination.collect(Runs.runs(client)), (items) =>
    Choice.fromRecords(items, (r) => `${label(r.title ?? r.task)} (${r.status})`, (r) => r.id)))

export const runSessions = DynamicOptions.make([], ({ client }) =>
  Effect.map(Pagination.collect(Queue.sessions(client)), (items) =>
    Choice.fromRecords(items, (s) => `${label(s.title ?? s.task)} (${s.status})`, (s) => s.sessionId)))
