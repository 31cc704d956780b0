/**
 * A deprecated action, in the runner: `describe` shows its date, replacement and reason, and a
 * run warns once on stderr (never in the outputs), however many steps use it. The catalog has no
 * deprecated action, so the commands run in process with a test-only component (the bundle has
 * no seam for one).
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as NodeContext from "@effect/platform-node/NodeContext"
import { describe, expect, it } from "@effect/vitest"
import { Action, Auth, Component, Connection } from "@x/core"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Describe from "../src/cli/handlers/describe.js"
import * as RunCommand from "../src/cli/handlers/run.js"
import * as Components from "../src/components/Components.js"
import * as Output from "../src/Output.js"

const deprecated = { since: "2026-01-29", replacement: "newThing", reason: "the provider switched the old endpoint off" }
const Thing = Schema.Struct({ made: Schema.String })

const legacy = Component.make({
  name: "legacy",
  version: 1,
  title: "Legacy",
  description: "A test-only component with a deprecated action.",
  category: "Testing",
  connection: Connection.custom({ title: "None", props: {}, client: { defaultBaseUrl: "http://127.0.0.1:9" }, authenticate: () => ({ credentials: Auth.none }) }),
  actions: [
    Action.make({ name: "oldThing", title: "Old thing", description: "Makes a thing the old way.", impact: "write", idempotent: false, props: {}, output: Thing, run: () => Effect.succeed({ made: "old" }), deprecated }),
    Action.make({ name: "newThing", title: "New thing", description: "Makes a thing.", impact: "write", idempotent: false, props: {}, output: Thing, run: () => Effect.succeed({ made: "new" }) })
  ]
})

/** Runs a command with the test component, capturing what it writes to stdout and stderr. */
const capture = <E>(command: Effect.Effect<void, E, any>) =>
  Effect.gen(function*() {
    const out: Array<string> = []
    const err: Array<string> = []
    const output = Layer.succeed(Output.Output, {
      out: (text) => Effect.sync(() => void out.push(text)),
      err: (text) => Effect.sync(() => void err.push(text))
    })
    const components = Layer.succeed(Components.Components, Components.make([{ component: legacy, simulate: () => Effect.die("no simulator") }], { rateLimits: false }))
    yield* command.pipe(Effect.provide(Layer.mergeAll(output, components, NodeContext.layer, FetchHttpClient.layer))) as Effect.Effect<void, E>
    return { out, err }
  })

describe("a deprecated action in the runner", () => {
  it.effect("describe shows its date, replacement and reason; an action that is not deprecated shows none", () =>
    Effect.gen(function*() {
      const one = yield* capture(Describe.describe(Option.some("legacy/v1/oldThing")))
      expect(JSON.parse(one.out.join("\n")).deprecated).toEqual(deprecated)
      const all = yield* capture(Describe.describe(Option.some("legacy/v1")))
      const actions = JSON.parse(all.out.join("\n")).actions as ReadonlyArray<{ name: string; deprecated?: unknown }>
      expect(actions.map((action) => [action.name, action.deprecated])).toEqual([["oldThing", deprecated], ["newThing", undefined]])
    }))

  it.effect("running it works, and warns once on stderr naming the action, its date and replacement; the outputs say nothing of it", () =>
    Effect.gen(function*() {
      const dir = mkdtempSync(join(tmpdir(), "x-runner-deprecated-"))
      const workflow = join(dir, "wf.json")
      writeFileSync(workflow, JSON.stringify({
        label: "Old and new",
        tasks: [
          { label: "Old", name: "first", type: "legacy/v1/oldThing", parameters: {} },
          { label: "Old again", name: "second", type: "legacy/v1/oldThing", parameters: {} },
          { label: "New", name: "third", type: "legacy/v1/newThing", parameters: {} }
        ]
      }))
      const { err, out } = yield* capture(RunCommand.run({
        workflow,
        inputs: new Map(),
        source: { sandbox: false, file: Option.none(), withoutRateLimits: false },
        json: true
      }))
      expect(err).toEqual(["⚠ legacy/v1/oldThing is deprecated since 2026-01-29: use newThing; the provider switched the old endpoint off"])
      expect(JSON.parse(out.join("\n"))).toEqual({
        status: "succeeded",
        steps: [
          { name: "first", type: "legacy/v1/oldThing", status: "succeeded", output: { made: "old" } },
          { name: "second", type: "legacy/v1/oldThing", status: "succeeded", output: { made: "old" } },
          { name: "third", type: "legacy/v1/newThing", status: "succeeded", output: { made: "new" } }
        ]
      })
    }))
})
