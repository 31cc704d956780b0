/**
 * Conditions, groups, loops, waits, time limits, `continueOnError` and `onFailure` through the
 * bundle on the sandbox (the examples, run as a user runs them), the check of every construct
 * (exit 2, each problem with its path, no request sent). Retries and the clock are tested in process (interpreter.test.ts).
 */
import { describe, expect, it } from "@effect/vitest"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as TrelloSimulator from "@x/boardtool/testing"
import { type RunDocument, runner } from "./bin.js"

const example = (name: string) => fileURLToPath(new URL(`../examples/${name}.json`, import.meta.url))
const dir = mkdtempSync(join(tmpdir(), "x-runner-control-"))
const workflowFile = (name: string, content: unknown) => {
  const file = join(dir, name)
  writeFileSync(file, JSON.stringify(content, null, 2))
  return file
}

const runJson = async (file: string, ...args: ReadonlyArray<string>) => {
  const outcome = await runner(["run", file, "--sandbox", "--output", "json", ...args])
  return { ...outcome, document: JSON.parse(outcome.stdout) as RunDocument }
}

describe("x-runner run: control flow on the sandbox", () => {
  it("a list-then-act loop: cards created four at once, then each open card due or to follow up commented once, in item order", async () => {
    const { code, document, stderr } = await runJson(example("comment-on-cards"))
    expect(code, stderr).toBe(0)
    const [created, open, reminded] = document.steps
    expect(created!.iterations!.map((iteration) => iteration.status)).toEqual(Array(5).fill("succeeded"))
    const wanted = (open!.output.cards as Array<{ id: string; name: string; due: string | null }>)
      .filter((card) => card.due !== null || card.name.startsWith("Follow up"))
    expect(wanted.length).toBe(6)
    // The loop's output: each iteration's comment, in the order of the filtered list.
    expect(reminded!.output.map((iteration: any) => iteration.comment.data.card.id)).toEqual(wanted.map((card) => card.id))
    expect(reminded!.output.map((iteration: any) => iteration.comment.data.text)).toEqual(wanted.map((card) => `Reminder: ${card.name}`))
    expect(reminded!.iterations!.map((iteration) => iteration.tasks[0]!.key)).toEqual(wanted.map((_, i) => `reminded[${i}].comment`))
    // Progress shows the loop and its iterations.
    const pretty = await runner(["run", example("comment-on-cards"), "--sandbox"])
    expect(pretty.stderr).toContain("↻ reminded (loop)")
    expect(pretty.stderr).toContain("iteration 6 of 6")
    expect(pretty.stderr).toContain("✔ reminded[5].comment succeeded")
  })

  it("a branch on an input: the group whose if holds runs, the other is skipped", async () => {
    const team = await runJson(example("branch-on-plan"))
    expect(team.code).toBe(0)
    expect(team.document.steps.map((step) => [step.name, step.kind, step.status])).toEqual([["enterprise", "group", "skipped"], ["standard", "group", "succeeded"]])
    expect(team.document.steps[1]!.output.welcome.data.text).toBe("Welcome Acme (team)")
    const enterprise = await runJson(example("branch-on-plan"), "--input", "plan=enterprise")
    expect(enterprise.document.steps.map((step) => step.status)).toEqual(["succeeded", "skipped"])
    expect(enterprise.document.steps[0]!.tasks![0]).toMatchObject({ key: "enterprise.onboarding", status: "succeeded", output: { name: "Onboard Acme (enterprise)" } })
    const pretty = await runner(["run", example("branch-on-plan"), "--sandbox"])
    expect(pretty.stderr).toContain("– enterprise skipped")
  })

  it("continueOnError: the task ends failed, the run goes on and succeeds, a later task reads its error", async () => {
    const { code, document } = await runJson(example("continue-on-error"))
    expect(code).toBe(0)
    expect(document.status).toBe("succeeded")
    expect(document.steps[0]).toMatchObject({ name: "gone", status: "failed", error: { tag: "NotFound" } })
    expect(document.steps[1]!.output.data.text).toBe(`Could not read the card: NotFound: ${document.steps[0]!.error!.message}`)
  })

  it("onFailure: runs once when the run fails, with failure (the failed task's path, tag and message); exit 1", async () => {
    const { code, document } = await runJson(example("on-failure"))
    expect(code).toBe(1)
    expect(document.failure).toMatchObject({ path: "move", tag: document.steps[0]!.error!.tag })
    expect(document.onFailure!.length).toBe(1)
    expect(document.onFailure![0]).toMatchObject({ name: "tell", status: "succeeded" })
    expect(document.onFailure![0]!.output.data.text).toBe(`The workflow failed at move: ${document.failure!.tag}: ${document.failure!.message}`)
  })

  it("a delay: the wait runs between the tasks, and later tasks read when it ended", async () => {
    const { code, document } = await runJson(example("delay"))
    expect(code).toBe(0)
    expect(document.steps.map((step) => step.status)).toEqual(["succeeded", "succeeded", "succeeded"])
    const until = document.steps[1]!.output.until as string
    expect(new Date(until).toISOString()).toBe(until)
    expect(document.steps[2]!.output.data.text).toBe(`Checked after waiting until ${until}`)
  })

  it("a retry: a task that fails twice (its requests answered 503 more times than the HTTP client retries) succeeds on its third attempt", async () => {
    // The HTTP client tries each request 5 times: 10 faults fail the task's first two attempts.
    const { code, document, stderr } = await runJson(example("retry"), "--sandbox-fault", "boardtool POST /1/cards 503 x10 retry-after=0")
    expect(code, stderr).toBe(0)
    expect(document.steps[0]).toMatchObject({ name: "card", status: "succeeded", attempts: 3, output: { name: "Created despite the outage" } })
    expect(stderr).toContain("fired 10 times")
    const pretty = await runner(["run", example("retry"), "--sandbox", "--sandbox-fault", "boardtool POST /1/cards 503 x10 retry-after=0"])
    expect(pretty.stderr).toContain("↻ card: attempt 2 of 3 after 100ms")
    expect(pretty.stderr).toContain("↻ card: attempt 3 of 3 after 200ms")
  })

  it("a timeout: a task that does not finish in time fails with Timeout and the run stops", async () => {
    const { code, document } = await runJson(workflowFile("timeout.json", {
      label: "Too slow",
      tasks: [
        {
          label: "Ask an agent, and wait for its answer",
          name: "research",
          type: "browseragent/v1/createSession",
          parameters: {
            task: "Find a mouse",
            model: "modelfamilyA-sonnet-4.6",
            outputSchema: { format: "JSON", schema: "{\"type\":\"object\"}" },
            waitForCompletion: true,
            timeoutSeconds: 120
          },
          timeout: "50 millis"
        },
        { label: "After", name: "after", type: "boardtool/v1/getCard", parameters: { id: "5eed0000000000000000000a" } }
      ]
    }))
    expect(code).toBe(1)
    expect(document.steps.map((step) => [step.name, step.status, step.error?.tag])).toEqual([["research", "failed", "Timeout"], ["after", "skipped", undefined]])
  })
})

describe("x-runner run: the check of the constructs", () => {
  it("each check error the issue names, through the CLI: exit 2, every problem with its path and message, nothing sent", async () => {
    const sim = await TrelloSimulator.start({})
    try {
      const get = (name: string, options: Record<string, unknown> = {}, id = "${inputs.card}") => ({
        label: name,
        name,
        type: "boardtool/v1/getCard",
        parameters: { id },
        ...options
      })
      const file = workflowFile("each-check-error.json", {
        label: "Each check error",
        inputs: { board: "5eed00000000000000000002", card: "5eed0000000000000000000a" },
        tasks: [
          { label: "cards", name: "cards", type: "boardtool/v1/listBoardCards", parameters: { idBoard: "${inputs.board}" } },
          get("unknown", { if: "nobody.id == 'x'" }),
          get("field", {}, "${= cards.cards[0].idd}"),
          get("notBool", { if: "cards.cards.size()" }),
          { label: "each", name: "each", forEach: "cards.cards.size()", as: "card", tasks: [get("inner")] },
          { label: "items", name: "items", forEach: "cards.cards", as: "int", tasks: [get("inItems")] },
          { label: "pause", name: "pause", delay: "two days" },
          get("outside", { if: "inner.id != ''" }, "${= inItems.id}"),
          get("early", { if: "late.id != ''" }),
          get("late")
        ]
      })
      const { code, stderr } = await runner(["run", file], {
        XRUNNER_BOARDTOOL_KEY: sim.key,
        XRUNNER_BOARDTOOL_TOKEN: sim.token,
        XRUNNER_BOARDTOOL_BASE_URL: sim.baseUrl
      })
      expect(code).toBe(2)
      const problems = stderr.split("\n").filter((line) => line.startsWith("  ")).map((line) => line.trim())
      expect(problems).toEqual([
        "tasks[1].if: unknown name \"nobody\" (known here: inputs, cards) (at column 1)",
        expect.stringMatching(/^tasks\[2\]\.parameters\.id: cards\.cards\[0\] has no field "idd" \(its fields: id, desc, .*\) \(at column 16\)$/),
        "tasks[3].if: must give a bool (true or false), not int",
        "tasks[4].forEach: must give a list, not int",
        "tasks[5].as: \"int\" is a name CEL has for itself (a type, a literal or a reserved word): no expression could read the item; choose another, e.g. \"item\"",
        "tasks[6].delay: \"two days\" is not a duration: expected text \"<amount> <unit>\" with a unit of nanos, micros, millis, seconds, minutes, hours, days or weeks (singular too), e.g. \"30 seconds\", \"2 hours\", \"500 millis\"",
        "tasks[7].if: \"inner\" is inside the loop \"each\": it is visible only there (at column 1)",
        "tasks[7].parameters.id: \"inItems\" is inside the loop \"items\": it is visible only there (at column 1)",
        "tasks[8].if: \"late\" is not an earlier task: a task sees only the tasks before it (at column 1)"
      ])
      expect(stderr).toContain("is not a valid workflow; nothing was run")
      expect(sim.stats.requests).toBe(0)
    } finally {
      await sim.close()
    }
  })

  it("every problem of the constructs: exit 2, each with its path, no request sent", async () => {
    const sim = await TrelloSimulator.start({})
    try {
      const action = (name: string, parameters: Record<string, unknown>, options: Record<string, unknown> = {}) => ({
        label: name,
        name,
        type: name === "cards" ? "boardtool/v1/listBoardCards" : "boardtool/v1/getCard",
        parameters,
        ...options
      })
      const file = workflowFile("bad-constructs.json", {
        label: "Bad",
        inputs: { board: "5eed00000000000000000002" },
        tasks: [
          action("cards", { idBoard: "${inputs.board}" }),
          action("retried", { id: "5eed0000000000000000000a" }, { retry: { attempts: 1, on: ["Nope"] }, timeout: "soon", if: "cards.cards" }),
          { label: "each", name: "each", forEach: "cards.cards[0].name", as: "card", tasks: [action("inner", { id: "${card.id}" })] },
          { label: "many", name: "many", forEach: "cards.cards", as: "c", concurrency: 99, tasks: [{ label: "w", name: "w1", delay: "ever" }] },
          action("outside", { id: "${inner.id}" }),
          { label: "w", name: "later", delay: "ages" },
          { label: "w", name: "when", until: "1 + 1" },
          { label: "g", name: "branch", if: "unknownName == 1", tasks: [action("outside", { id: "${= cards.cards[0].nope}" })] },
          { label: "both", name: "both", type: "boardtool/v1/getCard", parameters: {}, tasks: [] },
          {
            label: "l1", name: "l1", forEach: "[1]", as: "a", tasks: [{
              label: "l2", name: "l2", forEach: "[1]", as: "b", tasks: [{
                label: "l3", name: "l3", forEach: "[1]", as: "c3", tasks: [{ label: "l4", name: "l4", forEach: "[1]", as: "d", tasks: [{ label: "w", name: "w", delay: "1 millis" }] }]
              }]
            }]
          },
          { label: "w", name: "loop", forEach: "cards", as: "c2", tasks: [{ label: "w", name: "w2", delay: "1 millis" }] }
        ],
        onFailure: [action("tell", { id: "${= failure.nope}" })]
      })
      const { code, stderr } = await runner(["run", file], {
        XRUNNER_BOARDTOOL_KEY: sim.key,
        XRUNNER_BOARDTOOL_TOKEN: sim.token,
        XRUNNER_BOARDTOOL_BASE_URL: sim.baseUrl
      })
      expect(code).toBe(2)
      expect(stderr).toContain("nothing was run")
      expect(stderr).not.toContain("Expected undefined")
      for (
        const line of [
          "tasks[1].retry.attempts: must be a whole number from 2 to 20",
          "tasks[1].retry.on[0]: must be a connector error's tag: InvalidInput,",
          "tasks[1].timeout: \"soon\" is not a duration",
          "tasks[1].if: must give a bool",
          "tasks[2].forEach: must give a list, not string",
          "tasks[3].concurrency: must be a whole number from 1 to 64",
          "tasks[3].tasks[0].delay: ",
          "tasks[4].parameters.id: ${inner.id}: \"inner\" is inside the loop \"each\": it is visible only there",
          "tasks[5].delay: \"ages\" is not a duration",
          "tasks[6].until: must give a timestamp",
          "tasks[7].if: unknown name \"unknownName\"",
          "tasks[7].tasks[0].name: \"outside\" is the name of an earlier",
          "tasks[7].tasks[0].parameters.id: ",
          "tasks[8]: is one kind of task only: it has the keys of an action and a group",
          "tasks[9].tasks[0].tasks[0].tasks[0]: loops nest at most 3 deep",
          "tasks[10].forEach: must give a list",
          "onFailure[0].parameters.id: "
        ]
      ) expect(stderr).toContain(line)
      expect(sim.stats.requests).toBe(0)
    } finally {
      await sim.close()
    }
  })
})
