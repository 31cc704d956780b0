/**
 * `SqlWorkflowEngine` on the embedded database: an activity's result is journaled and replayed
 * (not run again) when an execution that did not succeed starts again on a new engine; an
 * activity that died is not journaled (it runs again); an execution that succeeded has its
 * journal deleted.
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as Activity from "@effect/workflow/Activity"
import * as Workflow from "@effect/workflow/Workflow"
import { describe, expect, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Database from "../src/store/Database.js"
import * as SqlWorkflowEngine from "../src/store/SqlWorkflowEngine.js"

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

/** The workflow: a journaled step, then a step that dies the first time (and the execution with it). */
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
    })
    return greeting
  })
)

const engine = (dataDir: string) =>
  Layer.provideMerge(registered, SqlWorkflowEngine.layer).pipe(
    Layer.provide(Database.layer({ _tag: "Embedded", dataDir })),
    Layer.provide(NodeContext.layer)
  )

describe("SqlWorkflowEngine", () => {
  it.live("journals each activity's result: an execution that died is replayed on a new engine, its recorded activities not run again; one that succeeded has no journal left", () =>
    Effect.gen(function*() {
      const dataDir = mkdtempSync(join(tmpdir(), "x-runner-engine-"))
      const execute = (name: string) =>
        Effect.scoped(Effect.flatMap(Layer.build(engine(dataDir)), (context) => Effect.provide(Effect.exit(Greet.execute({ name })), context)))
      // "flaky" dies: the execution ends in a defect; "greet" was journaled, "flaky" was not.
      const first = yield* execute("Ada")
      expect(Exit.isFailure(first) && Cause.isDie(first.cause)).toBe(true)
      expect([ran.get("greet"), ran.get("flaky")]).toEqual([1, 1])
      // The same execution on a new engine over the same file: "greet" answered by the journal, "flaky" run again.
      expect(yield* execute("Ada")).toEqual(Exit.succeed("hello Ada"))
      expect([ran.get("greet"), ran.get("flaky")]).toEqual([1, 2])
      // It succeeded: its journal is gone, so the same execution started again runs from the start.
      expect(yield* execute("Ada")).toEqual(Exit.succeed("hello Ada"))
      expect([ran.get("greet"), ran.get("flaky")]).toEqual([2, 3])
    }))
})
