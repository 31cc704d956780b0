import { describe, expect, it } from "@effect/vitest"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

const root = join(import.meta.dirname, "../../..")

const sources = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : []
  )

describe("contracts between packages", () => {
  // Packages meet through typed exports (e.g. `RequestDeadline`), not through state shared by
  // name or another library's private globals.
  it("no string-keyed globals, global symbols or @effect/platform private state in any package's source", () => {
    const offending: Array<string> = []
    for (const group of ["packages", "apps"]) {
      for (const pkg of readdirSync(join(root, group))) {
        let files: Array<string> = []
        try {
          files = sources(join(root, group, pkg, "src"))
        } catch {
          continue
        }
        for (const file of files) {
          const text = readFileSync(file, "utf8")
          for (const pattern of ["globalValue(", "Symbol.for(", "@effect/platform/HttpClient/scopedRequests"]) {
            if (text.includes(pattern)) offending.push(`${file.slice(root.length + 1)}: ${pattern}`)
          }
        }
      }
    }
    expect(offending).toEqual([])
  })
})
