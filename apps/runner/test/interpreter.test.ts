/**
 * The task tree's interpreter in process, on the TestClock and with a fake `Steps` (the CLI
 * tests run the constructs on the sandbox): retries on their schedule and only on the tags
 * named, time limits, loops' concurrency and item order, `continueOnError`, `onFailure` once,
 * waits, conditions. Each attempt is counted by the fake.
 */
import { describe, expect, it } from "@effect/vitest"
import { Action, Executor, Property } from "@x/core"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/TestClock"
import * as Interpreter from "../src/engine/Interpreter.js"
import * as Run from "../src/engine/Run.js"
import * as Workflow from "../src/workflow/Workflow.js"
import { notesComponent } from "./fixtures/notes.js"

const notes = notesComponent([
  Action.make({
    name: "makeNote",
    title: "Make a note",
    description: "Makes a note.",
    impact: "write",
    idempotent: false,
    props: { title: Property.string({ title: "Title", required: true }) },
    output: Schema.Struct({ id: Schema.String, title: Schema.String }),
    run: () => Effect.succeed({ id: "n1", title: "" })
  }),
  Action.make({
    name: "listNotes",
    title: "List notes",
    description: "Lists notes.",
    impact: "read",
    props: {},
    output: Schema.Struct({ notes: Schema.Array(Schema.Struct({ id: Schema.String, done: Schema.Boolean })) }),
    run: () => Effect.succeed({ notes: [] })
  })
])
const executor = Executor.make([notes])

const parse = (workflow: unknown, inputs: Record<string, unknown> = {}) => {
  const parsed = Workflow.parse(JSON.stringify({ label: "t", inputs, ...(workflow as object) }), new Map(), executor)
  if (Either.isLeft(parsed)) throw new Error(parsed.left.map((issue) => `${issue.path}: ${issue.message}`).join("\n"))
  return parsed.right
}

const make = (name: string, title = "x", options: Record<string, unknown> = {}) => ({
  label: name,
  name,
  type: "notes/v1/makeNote",
  parameters: { title },
  ...options
})

/** A fake `Steps`: each attempt's key recorded; `answer` decides each attempt (after `takes`, on the clock). */
const fake = (answer: (key: string, parameters: unknown, n: number) => Interpreter.Attempt, takes: (key: string) => Duration.Duration = () => Duration.zero) => {
  const keys: Array<string> = []
  const waits: Array<string> = []
  let running = 0
  let mostAtOnce = 0
  const steps: Interpreter.Steps<never> = {
    attempt: (task, key, scope, deadline) =>
      Effect.gen(function*() {
        keys.push(key)
        running += 1
        mostAtOnce = Math.max(mostAtOnce, running)
        const duration = takes(key)
        // (A sleep of zero still waits for the TestClock to move.) An attempt stops at its deadline, as `Steps` asks.
        const ended = Duration.greaterThan(duration, Duration.zero) ? yield* Run.untilDeadline(Effect.sleep(duration), deadline) : Option.some(undefined)
        running -= 1
        if (Option.isNone(ended)) return { status: "failed", error: deadline!.error } satisfies Interpreter.Attempt
        const title = task.parameters["title"]
        const resolved = typeof title === "string" && task.expressions.size > 0
          ? [...task.expressions.values()][0]!.evaluate(scope)
          : Either.right(title)
        return answer(key, Either.getOrUndefined(resolved), keys.filter((k) => k.split("#")[0] === key.split("#")[0]).length)
      }),
    waitUntil: (key, until) => Effect.zipRight(Effect.sync(() => void waits.push(`${key} ${until.toISOString()}`)), Effect.as(Interpreter.sleepUntil(until), until))
  }
  return { steps, keys, waits, mostAtOnce: () => mostAtOnce }
}

const ok = (output: unknown): Interpreter.Attempt => ({ status: "succeeded", output })
const failing = (tag: string, message = "no"): Interpreter.Attempt => ({ status: "failed", error: { tag, message } })

describe("Interpreter", () => {
  it.effect("retry: attempts on the schedule (1 s, then 2 s), each reported, until one succeeds", () =>
    Effect.gen(function*() {
      const workflow = parse({ tasks: [make("flaky", "x", { retry: { attempts: 3, delay: "1 second" } })] })
      const { keys, steps } = fake((_, __, n) => n < 3 ? failing("UpstreamUnavailable") : ok({ id: "n", title: "x" }))
      const retries: Array<string> = []
      const reporter: Interpreter.Reporter = {
        ...Interpreter.silent,
        retrying: (_task, key, attempt, of, after) => Effect.sync(() => void retries.push(`${key} ${attempt}/${of} after ${Duration.format(after)}`))
      }
      const fiber = yield* Effect.fork(Interpreter.run(workflow, steps, reporter))
      yield* TestClock.adjust("999 millis")
      expect(keys).toEqual(["flaky"])
      yield* TestClock.adjust("1 millis")
      expect(keys).toEqual(["flaky", "flaky#2"])
      yield* TestClock.adjust("2 seconds")
      const result = yield* Fiber.join(fiber)
      expect(keys).toEqual(["flaky", "flaky#2", "flaky#3"])
      expect(retries).toEqual(["flaky 2/3 after 1s", "flaky 3/3 after 2s"])
      expect(result.status).toBe("succeeded")
      expect(result.tasks[0]).toMatchObject({ status: "succeeded", attempts: 3 })
    }))

  it.effect("retry: an error whose tag it does not name is not retried (NotFound by default; retried when named in `on`)", () =>
    Effect.gen(function*() {
      const once = fake(() => failing("NotFound"))
      const result = yield* Interpreter.run(parse({ tasks: [make("a", "x", { retry: { attempts: 3, backoff: "fixed" } })] }), once.steps, Interpreter.silent)
      expect(once.keys).toEqual(["a"])
      expect(result.tasks[0]).toMatchObject({ status: "failed", attempts: 1, error: { tag: "NotFound" } })
      const named = fake(() => failing("NotFound"))
      const fiber = yield* Effect.fork(Interpreter.run(parse({ tasks: [make("a", "x", { retry: { attempts: 3, delay: "1 second", backoff: "fixed", on: ["NotFound"] } })] }), named.steps, Interpreter.silent))
      yield* TestClock.adjust("2 seconds")
      yield* Fiber.join(fiber)
      expect(named.keys).toEqual(["a", "a#2", "a#3"])
    }))

  it.effect("timeout: a task that does not finish in time fails with Timeout; the run stops there", () =>
    Effect.gen(function*() {
      const { keys, steps } = fake(() => ok({ id: "n", title: "x" }), () => Duration.seconds(10))
      const fiber = yield* Effect.fork(Interpreter.run(parse({ tasks: [make("slow", "x", { timeout: "1 second" }), make("after")] }), steps, Interpreter.silent))
      yield* TestClock.adjust("1 second")
      const result = yield* Fiber.join(fiber)
      expect(result.status).toBe("failed")
      expect(result.tasks.map((task) => [task.name, task.status, task.error?.tag])).toEqual([["slow", "failed", "Timeout"], ["after", "skipped", undefined]])
      expect(keys).toEqual(["slow"])
    }))

  it.effect("timeout with retries: each attempt is given the deadline; a retry's wait ends at it and no attempt starts after it", () =>
    Effect.gen(function*() {
      const deadlines: Array<number | undefined> = []
      const { keys, steps } = fake(() => failing("RateLimited"))
      const seen: Interpreter.Steps<never> = {
        ...steps,
        attempt: (task, key, scope, deadline) => Effect.zipRight(Effect.sync(() => void deadlines.push(deadline?.at)), steps.attempt(task, key, scope, deadline))
      }
      const workflow = parse({
        tasks: [make("flaky", "x", { timeout: "2500 millis", retry: { attempts: 5, delay: "1 second", backoff: "exponential", on: ["RateLimited"] } })]
      })
      const fiber = yield* Effect.fork(Interpreter.run(workflow, seen, Interpreter.silent))
      // Attempts at 0 s and 1 s; the third would be at 3 s: its wait ends at 2.5 s, and it does not start.
      yield* TestClock.adjust("2500 millis")
      const result = yield* Fiber.join(fiber)
      expect(keys).toEqual(["flaky", "flaky#2"])
      expect(deadlines).toEqual([2500, 2500])
      expect(result.tasks.map((task) => [task.name, task.status, task.error?.tag, task.attempts])).toEqual([["flaky", "failed", "Timeout", 2]])
    }))

  it.effect("a loop: at most `concurrency` iterations at once, its output in item order however they finish, each item's task once", () =>
    Effect.gen(function*() {
      const workflow = parse({
        tasks: [
          { label: "l", name: "listed", type: "notes/v1/listNotes", parameters: {} },
          {
            label: "each",
            name: "each",
            forEach: "listed.notes.filter(n, !n.done)",
            as: "note",
            concurrency: 4,
            tasks: [make("touch", "${= note.id}")]
          }
        ]
      })
      const items = Array.from({ length: 10 }, (_, i) => ({ id: `n${i}`, done: i % 5 === 4 }))
      // Later items finish first.
      const { keys, mostAtOnce, steps } = fake(
        (key, title) => key === "listed" ? ok({ notes: items }) : ok({ id: title, title }),
        (key) => key === "listed" ? Duration.zero : Duration.seconds(20 - Number(/\[(\d+)\]/.exec(key)![1]))
      )
      const fiber = yield* Effect.fork(Interpreter.run(workflow, steps, Interpreter.silent))
      yield* TestClock.adjust("1 minute")
      const result = yield* Fiber.join(fiber)
      const wanted = items.filter((item) => !item.done).map((item) => item.id)
      expect(result.status).toBe("succeeded")
      expect(result.tasks[1]!.output).toEqual(wanted.map((id) => ({ touch: { id, title: id } })))
      expect(result.tasks[1]!.iterations!.map((iteration) => iteration.tasks[0]!.key)).toEqual(wanted.map((_, i) => `each[${i}].touch`))
      expect(keys.filter((key) => key !== "listed").sort()).toEqual(wanted.map((_, i) => `each[${i}].touch`).sort())
      expect(mostAtOnce()).toBe(4)
    }))

  it.effect("continueOnError: the task ends failed, the run goes on, a later task reads its error", () =>
    Effect.gen(function*() {
      const workflow = parse({ tasks: [make("broken", "x", { continueOnError: true }), make("report", "${= broken.error.tag + ': ' + broken.error.message}")] })
      const { steps } = fake((key, title) => key === "broken" ? failing("NotFound", "no such note") : ok({ id: "r", title }))
      const result = yield* Interpreter.run(workflow, steps, Interpreter.silent)
      expect(result.status).toBe("succeeded")
      expect(result.tasks.map((task) => task.status)).toEqual(["failed", "succeeded"])
      expect(result.tasks[1]!.output).toEqual({ id: "r", title: "NotFound: no such note" })
    }))

  it.effect("onFailure runs once, with failure (the failed task's key, tag and message), after a failure inside a loop", () =>
    Effect.gen(function*() {
      const workflow = parse({
        tasks: [
          { label: "each", name: "each", forEach: "[1, 2, 3]", as: "n", concurrency: 3, tasks: [make("touch", "${= string(n)}")] },
          make("after")
        ],
        onFailure: [make("tell", "${= failure.path + ' ' + failure.tag + ' ' + failure.message}")]
      })
      const { keys, steps } = fake((key, title) => key === "each[1].touch" ? failing("Conflict", "taken") : ok({ id: key, title }))
      const result = yield* Interpreter.run(workflow, steps, Interpreter.silent)
      expect(result.status).toBe("failed")
      expect(result.failure).toEqual({ path: "each[1].touch", tag: "Conflict", message: "taken" })
      // The other iterations were not interrupted; the task after the loop was skipped.
      expect(result.tasks[0]!.iterations!.map((iteration) => iteration.status)).toEqual(["succeeded", "failed", "succeeded"])
      expect(result.tasks[1]!.status).toBe("skipped")
      expect(keys.filter((key) => key === "tell")).toEqual(["tell"])
      expect(result.onFailure![0]!.output).toEqual({ id: "tell", title: "each[1].touch Conflict taken" })
    }))

  it.effect("if: false skips the task (and a group's tasks); a group's tasks are visible after it", () =>
    Effect.gen(function*() {
      const workflow = parse({
        tasks: [
          { label: "g", name: "enterprise", if: "inputs.plan == 'enterprise'", tasks: [make("big")] },
          { label: "g", name: "other", if: "inputs.plan != 'enterprise'", tasks: [make("small")] },
          make("after", "${= has(small.id) ? 'small' : 'big'}")
        ]
      }, { plan: "team" })
      const { keys, steps } = fake((key, title) => ok({ id: key, title }))
      const result = yield* Interpreter.run(workflow, steps, Interpreter.silent)
      expect(result.tasks.map((task) => task.status)).toEqual(["skipped", "succeeded", "succeeded"])
      expect(keys).toEqual(["other.small", "after"])
      expect(result.tasks[2]!.output).toEqual({ id: "after", title: "small" })
    }))

  it.effect("a delay waits its duration on the clock; an until in the past (the TestClock starts at 1970) does not wait", () =>
    Effect.gen(function*() {
      const workflow = parse({
        tasks: [
          { label: "w", name: "pause", delay: "10 seconds" },
          { label: "w", name: "past", until: "timestamp('1969-12-31T00:00:00Z')" },
          make("after")
        ]
      })
      const { keys, steps, waits } = fake((key, title) => ok({ id: key, title }))
      const fiber = yield* Effect.fork(Interpreter.run(workflow, steps, Interpreter.silent))
      yield* TestClock.adjust("9 seconds")
      expect(keys).toEqual([])
      yield* TestClock.adjust("1 second")
      const result = yield* Fiber.join(fiber)
      expect(keys).toEqual(["after"])
      expect(waits).toEqual(["pause 1970-01-01T00:00:10.000Z", "past 1969-12-31T00:00:00.000Z"])
      expect(result.tasks[1]!.output).toEqual({ until: "1969-12-31T00:00:00.000Z" })
    }))
})
