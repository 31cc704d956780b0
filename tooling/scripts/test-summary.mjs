// Prints one closing line for the whole workspace from each package's vitest JSON report:
// "Tests: N passed, N failed, N skipped". Exits non-zero when a test failed, a test file failed
// outside its tests (it did not load, or threw while collecting: e.g. a contract suite whose
// document is missing under CI), or no test ran. Lists each such file, and each file whose
// every test was skipped (a contract suite without ../shared/specs, run locally).
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

const root = new URL("../..", import.meta.url).pathname
let passed = 0, failed = 0, skipped = 0, files = 0
const rows = [], brokenFiles = [], skippedFiles = []
const skippedStatuses = new Set(["skipped", "pending", "todo"])
for (const group of ["packages", "apps", "tooling"]) {
  const dir = join(root, group)
  if (!existsSync(dir)) continue
  for (const name of readdirSync(dir)) {
    const report = join(dir, name, "test-results.json")
    if (!existsSync(report)) continue
    const result = JSON.parse(readFileSync(report, "utf8"))
    files++
    passed += result.numPassedTests
    failed += result.numFailedTests
    skipped += result.numPendingTests + (result.numTodoTests ?? 0)
    rows.push(`  ${group}/${name}: ${result.numPassedTests} passed, ${result.numFailedTests} failed`)
    for (const file of result.testResults ?? []) {
      const path = file.name.startsWith(root) ? file.name.slice(root.length) : file.name
      const tests = file.assertionResults ?? []
      if (file.status === "failed" && !tests.some((test) => test.status === "failed")) {
        brokenFiles.push(`  ${path}: ${(file.message ?? "").split("\n")[0] || "failed outside its tests"}`)
      } else if (tests.length > 0 && tests.every((test) => skippedStatuses.has(test.status))) {
        skippedFiles.push(`  ${path}`)
      }
    }
  }
}
console.log(`\nTest summary (${files} packages)`)
for (const row of rows) console.log(row)
if (skippedFiles.length > 0) console.log(`Skipped entirely (not run, checked nothing):\n${skippedFiles.join("\n")}`)
if (brokenFiles.length > 0) console.log(`Failed outside their tests (counted as failures):\n${brokenFiles.join("\n")}`)
console.log(`Tests: ${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ""}` +
  `${brokenFiles.length > 0 ? `; ${brokenFiles.length} test file${brokenFiles.length === 1 ? "" : "s"} failed to run` : ""}`)
process.exit(failed > 0 || brokenFiles.length > 0 || passed === 0 ? 1 : 0)
