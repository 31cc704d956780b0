/** Dynamic options of the sites: the sites the token reaches. */
import { Choice, DynamicOptions } from "@x/core"
import * as Effect from "effect/Effect"
import * as Sites from "../api/sites.js"

export const sites = DynamicOptions.make([], ({ client }) =>
  Effect.map(Sites.listSites(client), (items) => Choice.fromRecords(items, (s) => s.displayName ?? s.id, (s) => s.id)))
