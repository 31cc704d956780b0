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

/**
 * The test each connector runs on its `./testing` entry (what a consumer's tests import): it
 * loads the simulator and `@x/core`'s Webhook module, not `@x/core`'s index nor the component.
 */
export const testingEntryLoads = (
  packageName: string,
  packageDir: string
): { readonly simulator: number; readonly webhook: number; readonly coreIndex: number; readonly componentIndex: number } => {
  const loaded = loadedModules(`${packageName}/testing`, packageDir)
  const component = packageName.split("/")[1]!
  const count = (pattern: RegExp) => loaded.filter((url) => pattern.test(url)).length
  return {
    simulator: count(/\/dist\/testing\/simulator\.js$/),
    webhook: count(/\/core\/dist\/Webhook\.js$/),
    coreIndex: count(/\/core\/dist\/index\.js$/),
    componentIndex: count(new RegExp(`/${component}/dist/index\\.js$`))
  }
}

/** What a lean `./testing` entry loads: the simulator and core's Webhook module, once each; no index. */
export const leanTestingEntry = { simulator: 1, webhook: 1, coreIndex: 0, componentIndex: 0 } as const
