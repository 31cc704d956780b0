// Prints one closing line for the whole workspace from each package's vitest JSON report:
// "Tests: N passed, N failed, N skipped". Exits non-zero when a test failed or no test ran.
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

const root = new URL("../..", import.meta.url).pathname
let passed = 0, failed = 0, skipped = 0, files = 0
const rows = []
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
  }
}
console.log(`\nTest summary (${files} packages)`)
for (const row of rows) console.log(row)
console.log(`Tests: ${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ""}`)
process.exit(failed > 0 || passed === 0 ? 1 : 0)
