/**
 * The catalog's entry of the runner's own component `schedule`: no provider, no simulator.
 *
 * @since 0.12.0
 */
import { schedule } from "../ScheduleComponent.js"
import type { Entry } from "./entry.js"

/**
 * The schedule component.
 *
 * @since 0.12.0
 * @category constants
 */
export const entry: Entry = { component: schedule }
