/**
 * `x-runner schema`: the JSON Schema of workflow files, as an editor uses it, checked with a
 * JSON Schema validator (ajv, draft 2020-12, strict): it is a valid schema, the committed
 * workflow.schema.json is its output, every example validates, a document using each construct
 * of the format validates, and each kind of mistake fails at its own place.
 */
import { beforeAll, describe, expect, it } from "@effect/vitest"
import { boardtool } from "@x/boardtool"
import { browseragent } from "@x/browseragent"
import { sitebuilder } from "@x/sitebuilder"
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js"
import * as Duration from "effect/Duration"
import * as Option from "effect/Option"
import { mkdtempSync, readdirSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { http } from "../src/components/HttpComponent.js"
import { schedule } from "../src/components/ScheduleComponent.js"
import { durationPattern } from "../src/workflow/WorkflowSchema.js"
import { runner } from "./bin.js"

const runnerDir = fileURLToPath(new URL("..", import.meta.url))
const examplesDir = join(runnerDir, "examples")
const committed = join(runnerDir, "workflow.schema.json")
const fix = "cd apps/runner && corepack pnpm run build && node dist/bundle/x-runner.js schema --output workflow.schema.json"

let printed = ""
let written = ""
let schema: Record<string, any> = {}
let validate: ValidateFunction

beforeAll(async () => {
  const file = join(mkdtempSync(join(tmpdir(), "x-runner-schema-")), "workflow.schema.json")
  const [toStdout, toFile] = await Promise.all([runner(["schema"]), runner(["schema", "--output", file])])
  expect(toStdout.code, toStdout.stderr).toBe(0)
  expect(toFile.code, toFile.stderr).toBe(0)
  printed = toStdout.stdout
  written = readFileSync(file, "utf8")
  schema = JSON.parse(printed)
  // Strict: an unknown keyword, a `required` key no `properties` names, a keyword of the wrong
  // type is an error. `enumDescriptions` and `patternErrorMessage` are VS Code's annotations.
  // Unoptimized code compiles four times faster and checks the same.
  const ajv = new Ajv2020({ strict: true, allErrors: true, code: { optimize: false } })
  ajv.addVocabulary(["enumDescriptions", "patternErrorMessage"])
  validate = ajv.compile(schema)
})

/** The errors of a document, each as `instancePath keyword`, with its one telling parameter. */
const errorsOf = (document: unknown): Array<string> => {
  if (validate(document)) return []
  return (validate.errors ?? []).map((error: ErrorObject) => {
    const detail = error.params["missingProperty"] ?? error.params["additionalProperty"] ?? error.params["allowedValues"] ?? error.params["limit"]
    return `${error.instancePath} ${error.keyword}${detail === undefined ? "" : ` ${Array.isArray(detail) ? detail.join("|") : String(detail)}`}`
  })
}

/** That one of the errors starts with this (`/tasks/0/type enum`: its place and keyword, then what it allows or misses). */
const expectError = (errors: ReadonlyArray<string>, expected: string) =>
  expect(errors.some((error) => error.startsWith(expected)), `${expected} among:\n${errors.join("\n")}`).toBe(true)

const workflow = (tasks: ReadonlyArray<unknown>, more: Record<string, unknown> = {}) => ({ label: "A test", tasks, ...more })

const card = {
  label: "Create a card",
  name: "card",
  type: "boardtool/v1/createCard",
  parameters: { idList: "5eed00000000000000000003", name: "A card" }
}

describe("x-runner schema", () => {
  it("is a draft 2020-12 schema (the meta-schema validates it, ajv compiles it strictly) with an $id and a title", () => {
    const ajv = new Ajv2020({ strict: true })
    ajv.addVocabulary(["enumDescriptions", "patternErrorMessage"])
    expect(ajv.validateSchema(schema), JSON.stringify(ajv.errors)).toBe(true)
    expect(schema).toMatchObject({ $schema: "https://json-schema.org/draft/2020-12/schema", title: "x-runner workflow" })
    expect(schema["$id"]).toMatch(/^https:\/\/.+\/workflow\.schema\.json$/)
    // Every action of the catalog is an action task's type, every trigger a trigger's, each with its parameters.
    const components = [sitebuilder, boardtool, browseragent, schedule, http]
    const typesOf = (pick: (component: typeof components[number]) => object) =>
      components.flatMap((component) => Object.keys(pick(component)).map((name) => `${component.name}/v${component.version}/${name}`)).sort()
    const action = schema["$defs"].action
    const trigger = schema["$defs"].trigger
    expect([...action.properties.type.enum].sort()).toEqual(typesOf((component) => component.actions))
    expect([...trigger.properties.type.enum].sort()).toEqual(typesOf((component) => component.triggers))
    expect(action.allOf.map((branch: any) => branch.if.properties.type.const)).toEqual(action.properties.type.enum)
    expect(action.allOf.find((branch: any) => branch.if.properties.type.const === "boardtool/v1/createCard").then.properties.parameters)
      .toMatchObject({ required: ["idList"], additionalProperties: false, properties: { idList: { title: expect.any(String), anyOf: [{ type: "string", pattern: "^[0-9a-fA-F]{24}$" }, { $ref: "#/$defs/reference" }] } } })
  })

  it(`is the committed workflow.schema.json (after a change to the format or the catalog: ${fix})`, () => {
    expect(written, "--output writes what stdout prints").toBe(printed)
    expect(readFileSync(committed, "utf8"), `workflow.schema.json is not x-runner schema's output; run: ${fix}`).toBe(printed)
  })

  it("validates every example, and every example names it", () => {
    const files = readdirSync(examplesDir).filter((file) => file.endsWith(".json"))
    expect(files.length).toBeGreaterThan(0)
    for (const file of files) {
      const document = JSON.parse(readFileSync(join(examplesDir, file), "utf8"))
      expect(errorsOf(document), file).toEqual([])
      expect(document["$schema"], file).toBe("../workflow.schema.json")
    }
  })

  it("validates a document using each construct: trigger, group, loop, waits, retry, timeout, continueOnError, if, ${…} and ${= …}, onFailure", () => {
    const document = {
      $schema: "../workflow.schema.json",
      label: "Every construct",
      description: "Made by the test",
      inputs: { boardId: "5eed00000000000000000002", hours: 24 },
      triggers: [{ label: "A card moved", name: "moved", type: "boardtool/v1/cardMoved", parameters: { idBoard: "${inputs.boardId}", toList: "${= inputs.boardId}" } }],
      tasks: [
        {
          ...card,
          if: "trigger.listAfter.name == 'Doing'",
          retry: { attempts: 3, delay: "500 millis", backoff: "fixed", on: ["RateLimited", "NotFound"] },
          timeout: "30 seconds",
          continueOnError: true,
          // A reference, an expression, and a reference inside a text, in a patterned, a typed and a plain parameter.
          parameters: { idList: "${trigger.listAfter.id}", pos: "${= card_count + 1}", name: "Moved: ${trigger.card.name}", dueComplete: "${= true}" }
        },
        {
          label: "A branch",
          name: "branch",
          if: "has(card.error)",
          timeout: "1 minute",
          tasks: [{ label: "Read the board", name: "board", type: "boardtool/v1/getBoard", parameters: { idBoard: "${inputs.boardId}" } }]
        },
        {
          label: "Each open card",
          name: "each",
          forEach: "lists.filter(l, !l.closed)",
          as: "list",
          concurrency: 16,
          continueOnError: false,
          tasks: [
            {
              label: "Its cards",
              name: "inner",
              forEach: "[1, 2]",
              as: "n",
              tasks: [{ label: "Comment", name: "comment", type: "boardtool/v1/addComment", parameters: { idCard: "${= list.id}", text: "n = ${n}" } }]
            }
          ]
        },
        { label: "Two days", name: "pause", delay: "2 days" },
        { label: "Until noon", name: "noon", until: "timestamp('2026-12-01T12:00:00Z')", if: "inputs.hours > 1" },
        { label: "A second", name: "second", delay: "1.5 second" }
      ],
      onFailure: [
        { label: "Say so", name: "sayIt", type: "boardtool/v1/addComment", parameters: { idCard: "${trigger.card.id}", text: "${= failure.tag + ': ' + failure.message}" } }
      ]
    }
    expect(errorsOf(document)).toEqual([])
  })

  it("fails each mistake at its own place", () => {
    const first = (task: Record<string, unknown>) => errorsOf(workflow([task]))
    // An unknown type: the type, and nothing about its parameters.
    expectError(first({ ...card, type: "boardtool/v1/createCardd" }), "/tasks/0/type enum")
    // A missing required parameter, an unknown one, a bad choice, a bad pattern, a wrong type.
    expectError(first({ ...card, parameters: { name: "no list" } }), "/tasks/0/parameters required idList")
    expectError(first({ ...card, parameters: { ...card.parameters, colour: "red" } }), "/tasks/0/parameters additionalProperties colour")
    expectError(first({ label: "Orders", name: "orders", type: "sitebuilder/v1/listOrders", parameters: { siteId: "5eed00000000000000000001", status: "shipped" } }), "/tasks/0/parameters/status enum pending|unfulfilled|fulfilled|disputed|dispute-lost|refunded")
    expectError(first({ ...card, parameters: { idList: "not hex" } }), "/tasks/0/parameters/idList pattern")
    expectError(first({ ...card, parameters: { ...card.parameters, dueComplete: "yes" } }), "/tasks/0/parameters/dueComplete type")
    // The options of an action task.
    expectError(first({ ...card, retry: { attempts: 1 } }), "/tasks/0/retry/attempts minimum 2")
    expectError(first({ ...card, retry: { attempts: 3, backoff: "linear" } }), "/tasks/0/retry/backoff enum exponential|fixed")
    expectError(first({ ...card, retry: { attempts: 3, on: ["Flaky"] } }), "/tasks/0/retry/on/0 enum " + schema["$defs"].retry.properties.on.items.enum.join("|"))
    expectError(first({ ...card, timeout: "30 secs" }), "/tasks/0/timeout pattern")
    expectError(first({ ...card, retries: 3 }), "/tasks/0 additionalProperties retries")
    // A loop without forEach, one too wide; a group with retry (an action's option only); a wait with both delay and until.
    const loop = { label: "Each", name: "each", forEach: "[1]", as: "item", tasks: [card] }
    const { forEach: _, ...withoutForEach } = loop
    expectError(first(withoutForEach), "/tasks/0 required forEach")
    expectError(first({ ...loop, concurrency: 65 }), "/tasks/0/concurrency maximum 64")
    expectError(first({ label: "Group", name: "group", tasks: [card], retry: { attempts: 2 } }), "/tasks/0 additionalProperties retry")
    expectError(first({ label: "Wait", name: "wait", delay: "1 second", until: "now" }), "/tasks/0 oneOf")
    // A mistake inside a group inside a loop is found there; a bad name; no tasks.
    expectError(first({ ...loop, tasks: [{ label: "Group", name: "group", tasks: [{ ...card, parameters: {} }] }] }), "/tasks/0/tasks/0/tasks/0/parameters required idList")
    expectError(first({ ...card, name: "my-card" }), "/tasks/0/name pattern")
    expectError(errorsOf(workflow([])), "/tasks minItems 1")
    // A trigger is one of the triggers, at most one; an unknown top-level key.
    const trigger = { label: "A new card", name: "created", type: "boardtool/v1/newCard", parameters: { idBoard: "5eed00000000000000000002" } }
    expect(errorsOf(workflow([card], { triggers: [trigger] }))).toEqual([])
    expectError(errorsOf(workflow([card], { triggers: [{ ...card, name: "t" }] })), "/triggers/0/type enum")
    expectError(errorsOf(workflow([card], { triggers: [trigger, { ...trigger, name: "again" }] })), "/triggers maxItems 1")
    expectError(errorsOf(workflow([card], { onFailur: [card] })), " additionalProperties onFailur")
  })

  it("takes a duration exactly when Effect's Duration.decode does (negatives aside)", () => {
    const pattern = new RegExp(durationPattern)
    const texts = [
      "30 seconds", "1 second", "2 hours", "1 hour", "500 millis", "1 milli", "10 nanos", "1 nano", "3 micros", "1 micro",
      "5 minutes", "1 minute", "2 days", "1 day", "1 weeks", "1 week", "1.5 hours", "0 seconds", "30  seconds", "30\tseconds",
      "30seconds", "30 secs", "30 Seconds", "1.5", "30", ".5 seconds", "1. seconds", " 30 seconds", "30 seconds ", "-1 seconds", "1e3 millis"
    ]
    for (const text of texts) {
      const decodes = Option.isSome(Duration.decodeUnknown(text)) && !text.startsWith("-")
      expect(pattern.test(text), text).toBe(decodes)
    }
  })
})
