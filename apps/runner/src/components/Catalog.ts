/**
 * The components the runner knows, as data: each with how to start its provider's simulator
 * (seeded, on a free loopback port) and the connection values that point at it (an entry
 * each, under `catalog/`). Nothing else in the runner names a provider; a new component is one
 * more entry there, named in `catalog/index.ts` too.
 *
 * @since 0.2.0
 */
import { entry as boardtool } from "./catalog/boardtool.js"
import { entry as browseragent } from "./catalog/browseragent.js"
import type { Entry } from "./catalog/entry.js"
import { entry as http } from "./catalog/http.js"
import { entry as schedule } from "./catalog/schedule.js"
import { entry as sitebuilder } from "./catalog/sitebuilder.js"

export type {
  /** @since 0.2.0 */
  Entry,
  /** @since 0.2.0 */
  Simulated,
  /** @since 0.2.0 */
  SimulatorOptions
} from "./catalog/entry.js"

/**
 * Every component the runner knows, in the order `describe` lists them.
 *
 * @since 0.2.0
 * @category constants
 */
export const entries: ReadonlyArray<Entry> = [sitebuilder, boardtool, browseragent, schedule, http]
