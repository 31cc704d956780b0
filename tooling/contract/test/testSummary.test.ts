/**
 * The closing test summary (tooling/scripts/test-summary.mjs) on vitest JSON reports: a
 * contract suite that failed while loading (its document missing under CI) has no failed test,
 * so only its file's status shows it; the summary must count it as a failure and name it, and
 * name a file every test of which was skipped (the same suite run locally without ../shared).
 */
import { describe, expect, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const script = fileURLToPath(new URL("../../scripts/test-summary.mjs", import.meta.url))

/** Runs the summary over a workspace holding these packages' reports. */
const summarize = (reports: Record<string, object>) => {
  const root = mkdtempSync(join(tmpdir(), "test-summary-"))
  try {
    mkdirSync(join(root, "tooling", "scripts"), { recursive: true })
    copyFileSync(script, join(root, "tooling", "scripts", "test-summary.mjs"))
    for (const [name, report] of Object.entries(reports)) {
      mkdirSync(join(root, "packages", name), { recursive: true })
      writeFileSync(join(root, "packages", name, "test-results.json"), JSON.stringify(report))
    }
    const run = spawnSync(process.execPath, [join(root, "tooling", "scripts", "test-summary.mjs")], { encoding: "utf8" })
    return { status: run.status, out: run.stdout.replaceAll(root + "/", "") }
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}

const report = (root: string, files: ReadonlyArray<{ name: string; status: string; message?: string; tests: ReadonlyArray<string> }>) => ({
  numPassedTests: files.flatMap((file) => file.tests).filter((status) => status === "passed").length,
  numFailedTests: files.flatMap((file) => file.tests).filter((status) => status === "failed").length,
  numPendingTests: files.flatMap((file) => file.tests).filter((status) => status === "skipped").length,
  numTodoTests: 0,
  testResults: files.map((file) => ({
    name: `${root}/${file.name}`,
    status: file.status,
    message: file.message ?? "",
    assertionResults: file.tests.map((status) => ({ status }))
  }))
})

describe("the test summary", () => {
  it("a file that failed outside its tests is a failure, named with its error's first line", () => {
    const missing = "contract document missing: /x/shared/specs/trello/trello-openapi.json. Under CI every contract suite must run"
    const { out, status } = summarize({
      boardtool: report("ROOT", [
        { name: "packages/boardtool/test/actions.test.ts", status: "passed", tests: ["passed", "passed"] },
        { name: "packages/boardtool/test/contract.test.ts", status: "failed", message: `${missing}\n    at …`, tests: [] }
      ])
    })
    expect(status).toBe(1)
    expect(out).toContain(`Failed outside their tests (counted as failures):\n  ROOT/packages/boardtool/test/contract.test.ts: ${missing}\n`)
    expect(out).toContain("Tests: 2 passed, 0 failed; 1 test file failed to run")
  })

  it("a file whose every test was skipped is named; the run still passes", () => {
    const { out, status } = summarize({
      sitebuilder: report("ROOT", [
        { name: "packages/sitebuilder/test/actions.test.ts", status: "passed", tests: ["passed", "skipped"] },
        { name: "packages/sitebuilder/test/contract.test.ts", status: "passed", tests: ["skipped", "skipped"] }
      ])
    })
    expect(status).toBe(0)
    expect(out).toContain("Skipped entirely (not run, checked nothing):\n  ROOT/packages/sitebuilder/test/contract.test.ts\n")
    expect(out).not.toContain("actions.test.ts")
    expect(out).toContain("Tests: 1 passed, 0 failed, 3 skipped\n")
  })
})
