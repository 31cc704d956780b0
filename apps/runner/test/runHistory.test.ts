/**
 * `x-runner run` records its run where `serve` keeps its runs (`--data-dir`, or `--database`;
 * `--no-history` to skip): `runs` lists it, `runs show` explains it task by task (inputs with
 * secrets replaced, outputs, errors, paths into calls and loops), and `runs retry` says how to
 * run it again (no serving runner takes it).
 */
import { describe, expect, it } from "@effect/vitest"
import { existsSync, mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { runner } from "./bin.js"

const example = (name: string) => fileURLToPath(new URL(`../examples/${name}`, import.meta.url))

describe("x-runner run, recorded", () => {
  it("a run's record: runs lists it, runs show gives each task by its path with its input and output", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "x-runner-history-"))
    const ran = await runner(["run", example("call-a-workflow.json"), "--sandbox", "--data-dir", dataDir, "--output", "json"])
    expect(ran.code, ran.stderr).toBe(0)
    const { runId, status } = JSON.parse(ran.stdout) as { readonly runId: string; readonly status: string }
    expect(status).toBe("succeeded")
    expect(runId).toMatch(/^[0-9a-f]{16}$/)
    const listed = await runner(["runs", "--data-dir", dataDir, "--output", "json"])
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ id: runId, workflow: "call-a-workflow", status: "succeeded", origin: "run", file: example("call-a-workflow.json") })])
    const shown = await runner(["runs", "show", runId, "--data-dir", dataDir, "--output", "json"])
    expect(shown.code, shown.stderr).toBe(0)
    const run = JSON.parse(shown.stdout) as { readonly steps: ReadonlyArray<{ readonly path: string; readonly kind: string; readonly status: string; readonly input?: any; readonly output?: any }> }
    expect(run.steps.map((step) => [step.path, step.kind, step.status])).toEqual([
      ["created", "action", "succeeded"],
      ["noted", "call", "succeeded"],
      ["noted.comment", "action", "succeeded"],
      ["noted.card", "action", "succeeded"],
      ["told", "action", "succeeded"]
    ])
    const step = (path: string) => run.steps.find((s) => s.path === path)!
    expect(step("created").input).toEqual({ idList: "5eed00000000000000000003", name: "Write the release notes" })
    expect(step("noted.comment").input).toMatchObject({ idCard: step("created").output.id, text: "Created as Write the release notes in To Do" })
    expect(step("told").output.data.text).toContain(step("noted.comment").output.id)
  })

  it("a failed run is recorded failed at its task; runs retry says how to run it again; --no-history records nothing", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "x-runner-history-"))
    const ran = await runner(["run", example("on-failure.json"), "--sandbox", "--data-dir", dataDir])
    expect(ran.code).toBe(1)
    const [, runId] = /↳ recorded as run ([0-9a-f]{16}): x-runner runs show /.exec(ran.stderr) ?? []
    expect(runId, ran.stderr).toBeDefined()
    const shown = JSON.parse((await runner(["runs", "show", runId!, "--data-dir", dataDir, "--output", "json"])).stdout)
    expect(shown).toMatchObject({ status: "failed", failedStep: "move", origin: "run" })
    expect(shown.steps.map((step: { path: string; status: string }) => [step.path, step.status])).toEqual([["move", "failed"], ["tell", "succeeded"]])
    const retried = await runner(["runs", "retry", runId!, "--data-dir", dataDir])
    expect(retried.code).toBe(2)
    expect(retried.stderr).toContain(`run ${runId} was run by x-runner run, not by a serving runner: run it again with x-runner run ${example("on-failure.json")}`)

    const none = mkdtempSync(join(tmpdir(), "x-runner-no-history-"))
    const unrecorded = await runner(["run", example("demo.json"), "--sandbox", "--data-dir", none, "--no-history"])
    expect(unrecorded.code, unrecorded.stderr).toBe(0)
    expect(unrecorded.stderr).not.toContain("recorded as run")
    expect(existsSync(join(none, "runs.db"))).toBe(false)
  })
})
