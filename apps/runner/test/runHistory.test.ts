/**
 * `x-runner run` records its run where `serve` keeps its runs (`--data-dir`, or `--database`;
 * `--no-history` to skip): `runs` lists it, `runs show` explains it task by task (inputs with
 * secrets replaced, outputs, errors, paths into calls and loops), and `runs retry` runs a failed
 * one again in its own process as it was run (its tasks that succeeded kept; no serving runner
 * takes it), given the same `--input` values again (only their digest is kept).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as TrelloSimulator from "@x/boardtool/testing"
import { createHash } from "node:crypto"
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { runner, runsDatabase } from "./bin.js"

const example = (name: string) => fileURLToPath(new URL(`../examples/${name}`, import.meta.url))

/** A workflow that fails at its one read (a card that does not exist), written in `dir`; its path. */
const readMissing = (dir: string) => {
  const file = join(dir, "read-missing.json")
  writeFileSync(file, JSON.stringify({
    label: "Read a card that does not exist",
    tasks: [{ label: "Read it", name: "read", type: "boardtool/v1/getCard", parameters: { id: "5eed00000000000000000ffe" } }]
  }))
  return file
}

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

  it("a run whose finish is stamped before its start (two runners' clocks) lasted 0 ms, in the table and in JSON alike", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "x-runner-history-"))
    const ran = await runner(["run", example("call-a-workflow.json"), "--sandbox", "--data-dir", dataDir, "--output", "json"])
    expect(ran.code, ran.stderr).toBe(0)
    const db = runsDatabase(dataDir)
    db.exec("UPDATE xr_runs SET started_at = finished_at + 5000")
    db.close()
    const listed = await runner(["runs", "--data-dir", dataDir, "--output", "json"])
    expect((JSON.parse(listed.stdout) as Array<{ durationMs: number }>).map((run) => run.durationMs)).toEqual([0])
    const table = await runner(["runs", "--data-dir", dataDir])
    expect(table.stdout).toContain(" 0 ms")
    expect(table.stdout).not.toContain("-5000")
  })

  it("a failed run is recorded failed at its task, with its failure path; --no-history records nothing", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "x-runner-history-"))
    const ran = await runner(["run", example("on-failure.json"), "--sandbox", "--data-dir", dataDir])
    expect(ran.code).toBe(1)
    const [, runId] = /↳ recorded as run ([0-9a-f]{16}): x-runner runs show /.exec(ran.stderr) ?? []
    expect(runId, ran.stderr).toBeDefined()
    const shown = JSON.parse((await runner(["runs", "show", runId!, "--data-dir", dataDir, "--output", "json"])).stdout)
    expect(shown).toMatchObject({ status: "failed", failedStep: "move", origin: "run" })
    expect(shown.steps.map((step: { path: string; status: string }) => [step.path, step.status])).toEqual([["move", "failed"], ["tell", "succeeded"]])

    const none = mkdtempSync(join(tmpdir(), "x-runner-no-history-"))
    const unrecorded = await runner(["run", example("demo.json"), "--sandbox", "--data-dir", none, "--no-history"])
    expect(unrecorded.code, unrecorded.stderr).toBe(0)
    expect(unrecorded.stderr).not.toContain("recorded as run")
    expect(existsSync(join(none, "runs.db"))).toBe(false)
  })

  describe("runs retry of a failed run x-runner run recorded", () => {
    let sim: TrelloSimulator.Simulator
    let env: Record<string, string>
    beforeAll(async () => {
      // The first comment's request fails (a 502 to a write: not retried by the client), so the step fails once.
      sim = await TrelloSimulator.start({
        key: "history-key-0123456789",
        token: "history-token-0123456789abcdef",
        rateLimits: false,
        faults: [{ method: "POST", path: "/1/cards/{id}/actions/comments", status: 502, times: 1 }]
      })
      env = { XRUNNER_BOARDTOOL_KEY: sim.key, XRUNNER_BOARDTOOL_TOKEN: sim.token, XRUNNER_BOARDTOOL_BASE_URL: sim.baseUrl }
    })
    afterAll(() => sim.close())

    const cardsNamed = async (name: string) => {
      const response = await fetch(`${sim.baseUrl}/lists/${TrelloSimulator.seed.lists.roadmapToDo}/cards`, {
        headers: { authorization: `OAuth oauth_consumer_key="${sim.key}", oauth_token="${sim.token}"` }
      })
      return (await response.json() as Array<{ id: string; name: string }>).filter((card) => card.name === name)
    }

    it("runs it again here as it was run: the task that succeeded is kept (its card not created twice), the others run; other inputs are refused", async () => {
      const dataDir = mkdtempSync(join(tmpdir(), "x-runner-history-retry-"))
      const ran = await runner(["run", example("call-a-workflow.json"), "--data-dir", dataDir, "--output", "json"], env)
      expect(ran.code, ran.stderr).toBe(1)
      const { runId } = JSON.parse(ran.stdout) as { readonly runId: string }
      expect(JSON.parse((await runner(["runs", "show", runId, "--data-dir", dataDir, "--output", "json"])).stdout)).toMatchObject({
        status: "failed",
        failedStep: "noted.comment",
        attempt: 0
      })
      expect(await cardsNamed("Write the release notes")).toHaveLength(1)
      expect(sim.faultsFired().map(({ fired }) => fired)).toEqual([1])

      // Inputs other than the run's (it was given none) are refused, nothing run.
      const other = await runner(["runs", "retry", runId, example("call-a-workflow.json"), "--data-dir", dataDir, "--input", "toDo=5eed00000000000000000004"], env)
      expect(other.code).toBe(2)
      expect(other.stderr).toContain(`run ${runId} was given no --input: give the same values again (x-runner keeps no input's value)`)

      const retried = await runner(["runs", "retry", runId, example("call-a-workflow.json"), "--data-dir", dataDir], env)
      expect(retried.code, retried.stderr + retried.stdout).toBe(0)
      expect(retried.stderr).toContain(`↻ run ${runId} runs again here (attempt 2), as x-runner run ran ${example("call-a-workflow.json")}`)
      const [card] = await cardsNamed("Write the release notes")
      expect(await cardsNamed("Write the release notes")).toHaveLength(1)
      const shown = JSON.parse((await runner(["runs", "show", runId, "--data-dir", dataDir, "--output", "json"])).stdout)
      expect(shown).toMatchObject({ status: "succeeded", attempt: 1, failedStep: null })
      expect(shown.steps.map((step: { path: string; status: string }) => [step.path, step.status])).toEqual([
        ["created", "succeeded"],
        ["noted", "succeeded"],
        ["noted.comment", "succeeded"],
        ["noted.card", "succeeded"],
        ["told", "succeeded"]
      ])
      // The kept task's output is the first attempt's card, which the others used.
      expect(shown.steps.find((step: { path: string }) => step.path === "created").output.id).toBe(card!.id)
      expect(shown.steps.find((step: { path: string }) => step.path === "noted.card").output.id).toBe(card!.id)
      // A run that succeeded is not retried.
      const again = await runner(["runs", "retry", runId, example("call-a-workflow.json"), "--data-dir", dataDir], env)
      expect(again.code).toBe(1)
      expect(again.stderr).toContain(`run ${runId} is succeeded: only a failed or unknown run is retried`)
    })

    it("never reads the credentials or the files directory the store names: --connections and --files-dir are said again or refused", async () => {
      const dataDir = mkdtempSync(join(tmpdir(), "x-runner-history-given-"))
      const file = readMissing(dataDir)
      const connections = join(dataDir, "connections.json")
      writeFileSync(connections, JSON.stringify({ boardtool: { key: sim.key, token: sim.token, baseUrl: sim.baseUrl } }))
      const files = mkdtempSync(join(tmpdir(), "x-runner-history-files-"))
      const ran = await runner(["run", file, "--data-dir", dataDir, "--output", "json", "--connections", connections, "--files-dir", files])
      expect(ran.code, ran.stderr).toBe(1)
      const { runId } = JSON.parse(ran.stdout) as { readonly runId: string }
      const unsaid = await runner(["runs", "retry", runId, file, "--data-dir", dataDir])
      expect([unsaid.code, unsaid.stderr]).toEqual([2, expect.stringContaining(`run ${runId} was run with --connections, --files-dir: a retry does not take them from the store; give them again`)])
      const half = await runner(["runs", "retry", runId, file, "--data-dir", dataDir, "--connections", connections])
      expect([half.code, half.stderr]).toEqual([2, expect.stringContaining(`run ${runId} was run with --files-dir: a retry does not take it from the store`)])
      expect(JSON.parse((await runner(["runs", "show", runId, "--data-dir", dataDir, "--output", "json"])).stdout)).toMatchObject({ attempt: 0 })
      // Both given again, elsewhere (the stored ones gone): it runs again here, on what was given (and fails again: the card is still missing).
      const givenDir = mkdtempSync(join(tmpdir(), "x-runner-history-given-again-"))
      const given = join(givenDir, "connections.json")
      renameSync(connections, given)
      rmSync(files, { recursive: true })
      const retried = await runner(["runs", "retry", runId, file, "--data-dir", dataDir, "--connections", given, "--files-dir", givenDir])
      expect(retried.code, retried.stderr).toBe(1)
      expect(retried.stderr).toContain(`↻ run ${runId} runs again here (attempt 2)`)
      expect(retried.stderr).toContain("NotFound")
    })

    it("runs on the sandbox or on real accounts as the command line says, never the store: --sandbox given again, or refused", async () => {
      const dataDir = mkdtempSync(join(tmpdir(), "x-runner-history-sandbox-"))
      const file = readMissing(dataDir)
      const onSandbox = await runner(["run", file, "--sandbox", "--data-dir", dataDir, "--output", "json"])
      expect(onSandbox.code, onSandbox.stderr).toBe(1)
      const sandboxRun = (JSON.parse(onSandbox.stdout) as { readonly runId: string }).runId
      const unsaid = await runner(["runs", "retry", sandboxRun, file, "--data-dir", dataDir], env)
      expect([unsaid.code, unsaid.stderr]).toEqual([2, expect.stringContaining(`run ${sandboxRun} was run with --sandbox: a retry does not take it from the store`)])
      const again = await runner(["runs", "retry", sandboxRun, file, "--data-dir", dataDir, "--sandbox"])
      expect(again.code, again.stderr).toBe(1)
      expect(again.stderr).toContain(`↻ run ${sandboxRun} runs again here (attempt 2)`)
      const onAccounts = await runner(["run", file, "--data-dir", dataDir, "--output", "json"], env)
      const realRun = (JSON.parse(onAccounts.stdout) as { readonly runId: string }).runId
      const sandboxed = await runner(["runs", "retry", realRun, file, "--data-dir", dataDir, "--sandbox"])
      expect([sandboxed.code, sandboxed.stderr]).toEqual([2, expect.stringContaining(`run ${realRun} ran on real connections, not the sandbox`)])
    })

    it("runs only the file that ran, and never turns private networks on from the store: both are said again or refused", async () => {
      const dataDir = mkdtempSync(join(tmpdir(), "x-runner-history-trust-"))
      const file = readMissing(dataDir)
      const workflow = readFileSync(file, "utf8")
      const ran = await runner(["run", file, "--data-dir", dataDir, "--output", "json", "--allow-private-networks"], env)
      expect(ran.code, ran.stderr).toBe(1)
      const { runId } = JSON.parse(ran.stdout) as { readonly runId: string }
      // The store says it ran with private networks allowed: a retry does not take that from it.
      const unsaid = await runner(["runs", "retry", runId, file, "--data-dir", dataDir], env)
      expect([unsaid.code, unsaid.stderr]).toEqual([2, expect.stringContaining(`run ${runId} was run with --allow-private-networks: a retry does not take it from the store`)])
      // The file changed since: not the run's workflow, nothing run.
      writeFileSync(file, workflow.replace("Read it", "Read it, changed"))
      const changed = await runner(["runs", "retry", runId, file, "--data-dir", dataDir, "--allow-private-networks"], env)
      expect([changed.code, changed.stderr]).toEqual([2, expect.stringContaining(`${file} is not the workflow run ${runId} ran (it changed since, or cannot be read)`)])
      expect(JSON.parse((await runner(["runs", "show", runId, "--data-dir", dataDir, "--output", "json"])).stdout)).toMatchObject({ attempt: 0 })
      // The same file, the flag given again: it runs again here (and fails again: the card is still missing).
      writeFileSync(file, workflow)
      const retried = await runner(["runs", "retry", runId, file, "--data-dir", dataDir, "--allow-private-networks"], env)
      expect(retried.code, retried.stderr).toBe(1)
      expect(retried.stderr).toContain(`↻ run ${runId} runs again here (attempt 2)`)
    })
    it("runs the workflow file given again, never the one the store names: none given is refused, another workflow is refused, the same one moved runs", async () => {
      const dataDir = mkdtempSync(join(tmpdir(), "x-runner-history-file-"))
      const file = readMissing(dataDir)
      const ran = await runner(["run", file, "--data-dir", dataDir, "--output", "json"], env)
      expect(ran.code, ran.stderr).toBe(1)
      const { runId } = JSON.parse(ran.stdout) as { readonly runId: string }
      // The stored path is not run, even though the file is still there.
      const unsaid = await runner(["runs", "retry", runId, "--data-dir", dataDir], env)
      expect([unsaid.code, unsaid.stderr]).toEqual([2, expect.stringContaining(`run ${runId} is a run of x-runner run: give its workflow file again`)])
      // Another workflow (a write, which would create a card): refused by the run's digest, nothing sent.
      const other = join(dataDir, "create.json")
      writeFileSync(other, JSON.stringify({
        label: "Create a card",
        tasks: [{ label: "Create it", name: "create", type: "boardtool/v1/createCard", parameters: { idList: TrelloSimulator.seed.lists.roadmapToDo, name: "Not this run's" } }]
      }))
      const elsewhere = await runner(["runs", "retry", runId, other, "--data-dir", dataDir], env)
      expect([elsewhere.code, elsewhere.stderr]).toEqual([2, expect.stringContaining(`${other} is not the workflow run ${runId} ran`)])
      expect(await cardsNamed("Not this run's")).toHaveLength(0)
      // A writer of the database points the run's record at that other workflow (its path and its
      // digest): what runs is still the operator's to name. Asked for no file, the record's is
      // not run; given the run's own, it is refused against the record; nothing is sent.
      const runsDb = runsDatabase(dataDir)
      const row = runsDb.prepare("SELECT rerun FROM xr_runs WHERE id = ?").get(runId) as { rerun: string }
      const forged = { ...JSON.parse(row.rerun), fileDigest: createHash("sha256").update(readFileSync(other)).digest("hex") }
      runsDb.prepare("UPDATE xr_runs SET file = ?, rerun = ? WHERE id = ?").run(other, JSON.stringify(forged), runId)
      runsDb.close()
      const pointed = await runner(["runs", "retry", runId, "--data-dir", dataDir], env)
      expect([pointed.code, pointed.stderr]).toEqual([2, expect.stringContaining(`run ${runId} is a run of x-runner run: give its workflow file again`)])
      const own = await runner(["runs", "retry", runId, file, "--data-dir", dataDir], env)
      expect([own.code, own.stderr]).toEqual([2, expect.stringContaining(`${file} is not the workflow run ${runId} ran`)])
      expect(await cardsNamed("Not this run's")).toHaveLength(0)
      const restored = runsDatabase(dataDir)
      restored.prepare("UPDATE xr_runs SET file = ?, rerun = ? WHERE id = ?").run(file, row.rerun, runId)
      restored.close()
      // --done is for a run of serve, given a file or not.
      const done = await runner(["runs", "retry", runId, file, "--data-dir", dataDir, "--done", "read"], env)
      expect([done.code, done.stderr]).toEqual([2, expect.stringContaining(`run ${runId} is a run of x-runner run: --done is for a run of serve`)])
      expect(JSON.parse((await runner(["runs", "show", runId, "--data-dir", dataDir, "--output", "json"])).stdout)).toMatchObject({ attempt: 0 })
      // The same workflow, moved: it is the file given that runs (and fails again: the card is still missing).
      const moved = join(mkdtempSync(join(tmpdir(), "x-runner-history-moved-")), "moved.json")
      renameSync(file, moved)
      const retried = await runner(["runs", "retry", runId, moved, "--data-dir", dataDir], env)
      expect(retried.code, retried.stderr).toBe(1)
      expect(retried.stderr).toContain(`↻ run ${runId} runs again here (attempt 2), as x-runner run ran ${moved}`)
    })
  })
})
