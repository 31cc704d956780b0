import { describe, expect, it } from "@effect/vitest"
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runner } from "./bin.js"

const dir = mkdtempSync(join(tmpdir(), "x-runner-files-"))
const step = (name: string, type: string, parameters: Record<string, unknown>) => ({ label: name, name, type, parameters })

describe("x-runner run: files", () => {
  it("a workflow uploads a local file as a card attachment, then downloads it: the same bytes, 0600", async () => {
    const source = join(dir, "notes.txt")
    writeFileSync(source, "Launch on Monday.\n")
    const copy = join(dir, "copy.txt")
    const file = join(dir, "attach.json")
    writeFileSync(file, JSON.stringify({
      label: "Attach",
      inputs: { source },
      tasks: [
        step("attach", "boardtool/v1/addAttachment", { idCard: "5eed0000000000000000000a", file: { path: "${inputs.source}" } }),
        step("fetch", "boardtool/v1/downloadAttachment", {
          idCard: "5eed0000000000000000000a",
          idAttachment: "${attach.id}",
          path: copy
        })
      ]
    }))
    const { code, stdout, stderr } = await runner(["run", file, "--sandbox", "--output", "json"])
    expect(stderr).toBe("")
    expect(code).toBe(0)
    const result = JSON.parse(stdout)
    expect(result.steps[0]).toMatchObject({ status: "succeeded", output: { name: "notes.txt", bytes: 18, mimeType: "text/plain", isUpload: true } })
    expect(result.steps[1]).toMatchObject({ status: "succeeded", output: { path: copy, size: 18, fileName: "notes.txt" } })
    expect(readFileSync(copy, "utf8")).toBe("Launch on Monday.\n")
    expect(statSync(copy).mode & 0o777).toBe(0o600)
  }, 60_000)

  it("a file over the limit fails the step with an InvalidInput naming the field, its size and the limit", async () => {
    const big = join(dir, "big.bin")
    writeFileSync(big, Buffer.alloc(10 * 1024 * 1024 + 1))
    const file = join(dir, "big.json")
    writeFileSync(file, JSON.stringify({
      label: "Too large",
      tasks: [step("attach", "boardtool/v1/addAttachment", { idCard: "5eed0000000000000000000a", file: { path: big } })]
    }))
    const { code, stdout } = await runner(["run", file, "--sandbox", "--output", "json"])
    expect(code).toBe(1)
    expect(JSON.parse(stdout).steps[0]).toEqual({
      name: "attach",
      type: "boardtool/v1/addAttachment",
      status: "failed",
      error: { tag: "InvalidInput", message: "file is 10 MiB (10485761 bytes), over its limit of 10 MiB (10485760 bytes)" }
    })
  }, 60_000)
})
