/**
 * `SqlWorkflowEngine` on the embedded database: an activity's result is journaled and replayed
 * (not run again) when the execution starts again on a new engine; an activity that died is not
 * journaled (it runs again, and once it succeeds it is).
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as Activity from "@effect/workflow/Activity"
import * as Workflow from "@effect/workflow/Workflow"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Database from "../src/Database.js"
import * as SqlWorkflowEngine from "../src/SqlWorkflowEngine.js"

const Greet = Workflow.make({
  name: "test/greet",
  payload: { name: Schema.String },
  success: Schema.String,
  idempotencyKey: ({ name }) => name
})

/** How many times each activity's body ran, across engines. */
const ran = new Map<string, number>()
const count = (key: string) => Effect.sync(() => void ran.set(key, (ran.get(key) ?? 0) + 1))
let dieOnce = true

/** The workflow: a journaled step, then a step that dies the first time. */
const registered = Greet.toLayer(({ name }) =>
  Effect.gen(function*() {
    const greeting = yield* Activity.make({
      name: "greet",
      success: Schema.String,
      execute: Effect.as(count("greet"), `hello ${name}`)
    })
    yield* Activity.make({
      name: "flaky",
      execute: Effect.zipRight(count("flaky"), Effect.suspend(() => dieOnce ? (dieOnce = false, Effect.die("boom")) : Effect.void))
    }).pipe(Effect.catchAllCause(() => Effect.void))
    return greeting
  })
)

const engine = (dataDir: string) =>
  Layer.provideMerge(registered, SqlWorkflowEngine.layer).pipe(
    Layer.provide(Database.layer({ _tag: "Embedded", dataDir })),
    Layer.provide(NodeContext.layer)
  )

describe("SqlWorkflowEngine", () => {
  it.live("journals each activity's result: started again on a new engine, it is replayed and not run again; a defect is not journaled", () =>
    Effect.gen(function*() {
      const dataDir = mkdtempSync(join(tmpdir(), "x-runner-engine-"))
      const first = yield* Effect.scoped(Effect.flatMap(Layer.build(engine(dataDir)), (context) =>
        Effect.provide(Greet.execute({ name: "Ada" }), context)))
      expect(first).toBe("hello Ada")
      expect([ran.get("greet"), ran.get("flaky")]).toEqual([1, 1])
      // The same execution on a new engine over the same file: the journal answers.
      const again = yield* Effect.scoped(Effect.flatMap(Layer.build(engine(dataDir)), (context) =>
        Effect.provide(Greet.execute({ name: "Ada" }), context)))
      expect(again).toBe("hello Ada")
      // "greet" is not run again; "flaky" died the first time (not journaled), so it ran again.
      expect([ran.get("greet"), ran.get("flaky")]).toEqual([1, 2])
      // Now both are journaled.
      yield* Effect.scoped(Effect.flatMap(Layer.build(engine(dataDir)), (context) => Effect.provide(Greet.execute({ name: "Ada" }), context)))
      expect([ran.get("greet"), ran.get("flaky")]).toEqual([1, 2])
      // Another execution runs its own activities.
      const other = yield* Effect.scoped(Effect.flatMap(Layer.build(engine(dataDir)), (context) =>
        Effect.provide(Effect.exit(Greet.execute({ name: "Bo" })), context)))
      expect(other).toEqual(Exit.succeed("hello Bo"))
      expect(ran.get("greet")).toBe(2)
    }))
})
