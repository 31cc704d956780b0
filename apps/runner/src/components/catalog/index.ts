/**
 * The catalog by component name, each entry loaded when asked for: a command that needs one
 * component (`describe boardtool/v1`) loads that package alone, each a chunk of its own in the
 * bundle.
 *
 * @since 0.12.0
 */
import type { Entry } from "./entry.js"

/**
 * The components' names, in the order `describe` lists them.
 *
 * @since 0.12.0
 * @category constants
 */
export const names = ["sitebuilder", "boardtool", "browseragent", "schedule", "http"] as const

const loaders: Readonly<Record<(typeof names)[number], () => Promise<Entry>>> = {
  sitebuilder: () => import("./sitebuilder.js").then((module) => module.entry),
  boardtool: () => import("./boardtool.js").then((module) => module.entry),
  browseragent: () => import("./browseragent.js").then((module) => module.entry),
  schedule: () => import("./schedule.js").then((module) => module.entry),
  http: () => import("./http.js").then((module) => module.entry)
}

/**
 * Whether a name is one of the catalog's components.
 *
 * @since 0.12.0
 * @category utils
 */
export const isName = (name: string): name is (typeof names)[number] => (names as ReadonlyArray<string>).includes(name)

/**
 * The entries of these components, in the catalog's order.
 *
 * @since 0.12.0
 * @category constructors
 */
export const load = (wanted: ReadonlyArray<(typeof names)[number]>): Promise<ReadonlyArray<Entry>> =>
  Promise.all(names.filter((name) => wanted.includes(name)).map((name) => loaders[name]()))
