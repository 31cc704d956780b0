/**
 * The workflow parser in process (the CLI tests run it through the bundle): a valid file's
 * checked steps, and each kind of problem reported with its path, all of them at once.
 */
import { describe, expect, it } from "@effect/vitest"
import { Action, Executor, Property } from "@x/core"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import * as Workflow from "../src/workflow/Workflow.js"
import { notesComponent } from "./fixtures/notes.js"

const Note = Schema.Struct({ id: Schema.String })

const notes = notesComponent([
  Action.make({
    name: "makeNote",
    title: "Make a note",
    description: "Makes a note.",
    impact: "write",
    idempotent: false,
    props: { title: Property.string({ title: "Title", required: true }), count: Property.integer({ title: "Count" }) },
    output: Note,
    run: () => Effect.succeed({ id: "n1" })
  }),
  Action.make({ name: "forget", title: "Forget", description: "Outputs nothing.", impact: "read", props: {}, run: () => Effect.void })
])
const executor = Executor.make([notes])

const parse = (workflow: unknown, given: Record<string, string> = {}) =>
  Workflow.parse(typeof workflow === "string" ? workflow : JSON.stringify(workflow), new Map(Object.entries(given)), executor)

const issuesOf = (workflow: unknown, given: Record<string, string> = {}) =>
  Either.match(parse(workflow, given), {
    onLeft: (issues) => issues.map((issue) => `${issue.path}: ${issue.message}`),
    onRight: () => ["(valid)"]
  })

const task = (name: string, parameters: Record<string, unknown> = { title: "t" }, type = "notes/v1/makeNote") => ({ label: name, name, type, parameters })

describe("Workflow.parse", () => {
  it("a valid workflow: inputs with the given ones over the declared, each task resolved, decoded once when all its parameters are known", () => {
    const parsed = parse({
      label: "Notes",
      description: "Makes notes.",
      inputs: { title: "declared", count: 2 },
      tasks: [
        task("first", { title: "${inputs.title}", count: "${inputs.count}" }),
        task("second", { title: "after ${first.id}" }),
        task("third", {}, "notes/v1/forget")
      ]
    }, { title: "given" })
    expect(Either.isRight(parsed)).toBe(true)
    const workflow = Either.getOrThrow(parsed)
    expect(workflow.label).toBe("Notes")
    expect(workflow.description).toBe("Makes notes.")
    expect([...workflow.inputs]).toEqual([["title", "given"], ["count", 2]])
    expect(workflow.trigger).toBeUndefined()
    const tasks = Workflow.actionTasks(workflow)
    expect(tasks.map((checked) => [checked.step.name, checked.prepared.action.name])).toEqual([
      ["first", "makeNote"],
      ["second", "makeNote"],
      ["third", "forget"]
    ])
    // Inputs put in and decoded now; a parameter that waits for a step's output is kept as written.
    expect(tasks[0]!.parameters).toEqual({ title: "given", count: 2 })
    expect(tasks[0]!.decoded).toBeDefined()
    expect(tasks[1]!.parameters).toEqual({ title: "after ${first.id}" })
    expect(tasks[1]!.decoded).toBeUndefined()
    expect(Workflow.componentsOf(workflow)).toEqual([notes])
    expect(Workflow.deprecations(workflow)).toEqual([])
  })

  it("a leading byte-order mark is accepted", () => {
    expect(issuesOf("\ufeff" + JSON.stringify({ label: "x", tasks: [task("a")] }))).toEqual(["(valid)"])
  })

  it("JSON syntax: one problem, at the text's path, with its line and column (and no excerpt of the text)", () => {
    expect(issuesOf("{\n  \"label\": \"secret-ish\",\n  \"tasks\": [1,]\n}")).toEqual([": not valid JSON at line 3, column 15: Unexpected token"])
  })

  it("the shape: every problem of the file's fields at once", () => {
    expect(issuesOf({ tasks: [], extra: 1 })).toEqual([
      "extra: is not a known parameter",
      "label: is required",
      "tasks: must have at least one step"
    ])
    expect(issuesOf({ label: 3, tasks: [task("a")] })).toEqual(["label: Expected string, actual 3"])
  })

  it("a step's shape, type and parameters, each with the step's path", () => {
    expect(issuesOf({ label: "x", tasks: [{ name: "a" }] })).toEqual([
      "tasks[0].label: is required",
      "tasks[0].parameters: is required",
      "tasks[0].type: is required"
    ])
    expect(issuesOf({ label: "x", tasks: [task("a", {}, "notes/v1/nothing"), task("b", {}, "nope/v1/x"), task("c", {}, "bad")] })).toEqual([
      "tasks[0].type: notes/v1 has no action \"nothing\"; available: makeNote, forget",
      "tasks[1].type: unknown component \"nope\"; available: notes/v1",
      "tasks[2].type: \"bad\" is not of the form <component>/v<version>/<action>, e.g. boardtool/v1/createCard"
    ])
    expect(issuesOf({ label: "x", tasks: [task("a", { count: "many", extra: 1 })] })).toEqual([
      "tasks[0].parameters.extra: is not a known parameter",
      "tasks[0].parameters.title: is required",
      "tasks[0].parameters.count: must be an integer"
    ])
  })

  it("step names: a duplicate, and the reserved ones", () => {
    expect(issuesOf({ label: "x", tasks: [task("a"), task("a"), task("inputs"), task("__proto__")] })).toEqual([
      "tasks[1].name: \"a\" is the name of an earlier step",
      "tasks[2].name: \"inputs\" is reserved",
      "tasks[3].name: \"__proto__\" is reserved"
    ])
  })

  it("references: to a later step, to no step, to a step without output, to an undeclared input", () => {
    expect(issuesOf({
      label: "x",
      tasks: [
        task("a", { title: "${b.id}" }),
        task("b"),
        task("c", { title: "${zzz.id}" }),
        task("d", {}, "notes/v1/forget"),
        task("e", { title: "${d.x}" }),
        task("f", { title: "${inputs.nope}" })
      ]
    })).toEqual([
      "tasks[0].parameters.title: ${b.id}: \"b\" is not an earlier step",
      "tasks[2].parameters.title: ${zzz.id}: \"zzz\" is not a step",
      "tasks[4].parameters.title: ${d.x}: \"d\" has no output",
      "tasks[5].parameters.title: ${inputs.nope}: no input \"nope\" is declared"
    ])
  })

  it("inputs: a reserved name, one given that is not declared, a given value its parameter refuses (naming the input)", () => {
    expect(issuesOf(
      { label: "x", inputs: { trigger: 1, prototype: 2, colour: "red" }, tasks: [task("a", { title: "${inputs.colour}" })] },
      { color: "blue" }
    )).toEqual([
      "inputs.prototype: \"prototype\" is reserved",
      "inputs.color: the workflow declares no input \"color\""
    ])
    expect(issuesOf({ label: "x", inputs: { n: "1" }, tasks: [task("a", { title: "t", count: "${inputs.n}" })] }, { n: "many" })).toEqual([
      "tasks[0].parameters.count: must be an integer (its value comes from input \"n\")"
    ])
  })

  it("a step's connection: a name of a connection, kept with the step; the connections used, each with where it is named", () => {
    const named = (name: string, connection: unknown) => ({ ...task(name), connection })
    const parsed = parse({ label: "w", tasks: [named("a", "work"), task("b"), { label: "g", name: "g", tasks: [named("c", "work"), named("d", "home")] }] })
    if (Either.isLeft(parsed)) return expect.fail(JSON.stringify(parsed.left))
    expect(Workflow.actionTasks(parsed.right).map((checked) => checked.step.connection)).toEqual(["work", undefined, "work", "home"])
    expect(Workflow.connectionsOf(parsed.right).map(({ at, component, connection }) => ({ component: component.name, connection, at }))).toEqual([
      { component: "notes", connection: "work", at: ["tasks[0]", "tasks[2].tasks[0]"] },
      { component: "notes", connection: undefined, at: [] },
      { component: "notes", connection: "home", at: ["tasks[2].tasks[1]"] }
    ])
    expect(issuesOf({ label: "w", tasks: [named("a", "my work"), named("b", 3)] })).toEqual([
      "tasks[0].connection: must be a connection's name: a letter, then up to 63 letters, digits, _ or -",
      "tasks[1].connection: Expected string, actual 3"
    ])
  })

  it("triggers: at most one, each checked", () => {
    expect(issuesOf({ label: "x", triggers: [task("t1", {}, "notes/v1/tick"), task("t2", {}, "notes/v1/tick")], tasks: [task("a")] })).toEqual([
      "triggers: at most one trigger",
      "triggers[0].type: notes/v1 has no trigger \"tick\"; available: none",
      "triggers[1].type: notes/v1 has no trigger \"tick\"; available: none"
    ])
  })

  it("a value nested deeper than 64 levels is refused with the path to it, before the steps are checked", () => {
    const deep = JSON.parse("[".repeat(70) + "]".repeat(70))
    expect(issuesOf({ label: "x", tasks: [task("a", { title: "t", deep })] })).toEqual([
      `tasks[0].parameters.deep${"[0]".repeat(60)}: nested deeper than 64 levels`
    ])
  })
})
