/**
 * What importing a module really loads: `specifier` is imported in a fresh Node process, from
 * `cwd` (so a package can import itself by name, through its `exports`), with a module hook
 * that records every module URL it loads, built-ins included.
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const recorder = new URL("./recordLoads.mjs", import.meta.url).href

export const loadedModules = (specifier: string, cwd: string): Array<string> => {
  const dir = mkdtempSync(join(tmpdir(), "x-loads-"))
  const log = join(dir, "loads.txt")
  try {
    execFileSync(process.execPath, ["--import", recorder, "--input-type=module", "--eval", `await import(${JSON.stringify(specifier)})`], {
      cwd,
      env: { ...process.env, X_RECORD_LOADS: log },
      stdio: "pipe"
    })
    return readFileSync(log, "utf8").trim().split("\n")
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
