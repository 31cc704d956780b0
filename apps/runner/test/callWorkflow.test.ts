/**
 * A task that calls another workflow (`{ "workflow": "<file>", "inputs": { … } }`), through the
 * bundle on the sandbox: the called workflow's tasks run as part of the run, under the call's
 * key, with the inputs the caller gives (read when it runs, not the called file's defaults); a
 * later task reads the call's output; under `serve` the called tasks are the run's rows; a cycle
 * of calls, a missing or absolute file, an input the called workflow does not declare, and the
 * called workflow's own problems are refused at the check (exit 2, with their paths).
 */
import { describe, expect, it } from "@effect/vitest"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { type RunDocument, runner } from "./bin.js"

const example = (name: string) => fileURLToPath(new URL(`../examples/${name}`, import.meta.url))

describe("x-runner run: a task that calls another workflow", () => {
  it("runs the called workflow's tasks with the inputs given, under the call's key; a later task reads its output", async () => {
    const { code, stderr, stdout } = await runner(["run", example("call-a-workflow.json"), "--sandbox", "--output", "json"])
    expect(code, stderr).toBe(0)
    const document = JSON.parse(stdout) as RunDocument
    expect(document.status).toBe("succeeded")
    expect(document.steps.map((step) => [step.name, step.kind ?? "action", step.status])).toEqual([
      ["created", "action", "succeeded"],
      ["noted", "call", "succeeded"],
      ["told", "action", "succeeded"]
    ])
    const [created, noted, told] = document.steps
    expect(noted!.tasks!.map((task) => [task.key, task.status])).toEqual([["noted.comment", "succeeded"], ["noted.card", "succeeded"]])
    // The inputs the call gave, not the called file's defaults (another card, another note).
    expect(noted!.output.card.id).toBe(created!.output.id)
    expect(noted!.output.comment.data.text).toBe("Created as Write the release notes in To Do")
    expect(told!.output.data.text).toBe(`The note is comment ${noted!.output.comment.id} on Write the release notes`)
  })

  it("serve runs a called workflow's tasks durably, as rows of the caller's run by their keys", async () => {
    const dir = mkdtempSync(join(tmpdir(), "x-runner-call-serve-"))
    const served = JSON.parse(readFileSync(example("card-moved.json"), "utf8")) as Record<string, unknown>
    writeFileSync(join(dir, "note-on-card.json"), readFileSync(example("note-on-card.json")))
    const file = join(dir, "card-moved-calls.json")
    writeFileSync(file, JSON.stringify({
      ...served,
      $schema: undefined,
      tasks: [{ label: "Note it", name: "noted", workflow: "note-on-card.json", inputs: { card: "${trigger.card.id}", note: "moved to ${trigger.listAfter.name}" } }]
    }))
    const { code, stderr, stdout } = await runner(["run", example("board.json"), "--sandbox", "--serve", file, "--output", "json"])
    expect(code, stderr).toBe(0)
    const trigger = (JSON.parse(stdout) as RunDocument).trigger!
    expect(trigger.status).toBe("succeeded")
    expect(trigger.steps.map((step) => [step.name, step.kind, step.status])).toEqual([["noted", "call", "succeeded"]])
    expect(trigger.steps[0]!.output.comment.data.text).toBe("moved to Doing")
    expect(stderr).toContain("[trigger]     ✔ noted.comment succeeded")
    expect(stderr).toContain("[trigger]   ✔ noted succeeded")
  })

  it("refuses at the check, with their paths: a cycle, a missing or absolute file, an undeclared input, the called workflow's own problems", async () => {
    const dir = mkdtempSync(join(tmpdir(), "x-runner-calls-"))
    const write = (name: string, workflow: unknown) => writeFileSync(join(dir, name), JSON.stringify(workflow))
    write("a.json", {
      label: "a",
      inputs: { x: "1" },
      tasks: [
        { label: "calls b", name: "b", workflow: "b.json", inputs: { y: "${inputs.x}" } },
        { label: "calls a missing file", name: "m", workflow: "missing.json" },
        { label: "calls an absolute path", name: "abs", workflow: "/etc/hostname" },
        { label: "calls c with an input it does not declare", name: "c", workflow: "c.json", inputs: { nope: "1" } }
      ]
    })
    write("b.json", {
      label: "b",
      inputs: { y: "2" },
      tasks: [
        { label: "calls a", name: "a2", workflow: "a.json" },
        { label: "a wrong parameter", name: "bad", type: "boardtool/v1/getCard", parameters: { id: "${inputs.y}", zzz: 1 } }
      ]
    })
    write("c.json", { label: "c", tasks: [{ label: "read", name: "read", type: "boardtool/v1/getCard", parameters: { id: "5eed0000000000000000000a" } }] })
    const { code, stderr } = await runner(["run", join(dir, "a.json"), "--sandbox"])
    expect(code).toBe(2)
    for (
      const line of [
        "tasks[0].workflow: b.json: tasks[0].workflow: a.json: a cycle of calls (a.json → b.json → a.json)",
        "tasks[0].workflow: b.json: tasks[1].parameters.zzz: is not a known parameter",
        "tasks[1].workflow: missing.json: no such file",
        "tasks[2].workflow: /etc/hostname: a called workflow is named by its path relative to this workflow's file",
        "tasks[3].inputs.nope: c.json declares no input \"nope\""
      ]
    ) expect(stderr).toContain(line)
    expect(stderr).toContain("nothing was run")
  })
})
