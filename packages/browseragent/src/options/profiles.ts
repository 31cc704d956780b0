/** Dynamic options: the profiles (every page). */
import { Choice, DynamicOptions, Pagination } from "@x/core"
import * as Effect from "effect/Effect"
import * as Profiles from "../api/profiles.js"

export const profiles = DynamicOptions.make([], ({ client }) =>
  Effect.map(Pagination.collect(Profiles.profiles(client)), (items) =>
    Choice.fromRecords(items, (p) => p.name ?? p.userId ?? p.id, (p) => p.id)))
