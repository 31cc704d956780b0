/**
 * A command's output is whole before the process exits, piped or not, success or failure; and
 * a reader that closes the pipe early (`… | head -1`) ends the command quietly.
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Database from "../src/store/Database.js"
import * as RunStore from "../src/store/RunStore.js"
import { cli, type RunDocument, spawn } from "./bin.js"

const dir = mkdtempSync(join(tmpdir(), "x-runner-output-"))

/** The bin's exit code and stderr, once it has exited (a child killed by a signal answers its name). */
const ended = (child: ReturnType<typeof spawn>) => {
  let stderr = ""
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
  return new Promise<{ readonly code: number | string; readonly stderr: string }>((resolve) =>
    child.once("close", (code, signal) => resolve({ code: code ?? signal ?? "?", stderr }))
  )
}

describe("output", () => {
  it("a failed run's --output json of some 500 KB is whole through a pipe read slowly, and parses", async () => {
    // Thirty cards with a long description each, then a card that does not exist: the run fails.
    // (Far more than the pipe and the reader's buffer hold: some 200 KB.)
    const desc = "y".repeat(16_000)
    const file = join(dir, "big-failure.json")
    writeFileSync(
      file,
      JSON.stringify({
        label: "Big failure",
        tasks: [
          ...Array.from({ length: 30 }, (_, i) => ({
            label: `card ${i}`,
            name: `card${i}`,
            type: "boardtool/v1/createCard",
            parameters: { idList: "5eed00000000000000000003", name: `card ${i}`, desc }
          })),
          { label: "missing", name: "missing", type: "boardtool/v1/getCard", parameters: { id: "000000000000000000000000" } }
        ]
      })
    )
    const child = spawn(process.execPath, [cli, "run", file, "--sandbox", "--output", "json"])
    const end = ended(child)
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
    const chunks: Array<Buffer> = []
    // A slow reader: after the first chunk, nothing more is taken from the pipe until the bin
    // has exited, or has waited for its reader a while (it cannot exit before its output is read).
    await new Promise<void>((resolve) =>
      child.stdout.on("data", (chunk: Buffer) => {
        chunks.push(chunk)
        if (chunks.length === 1) {
          child.stdout.pause()
          resolve()
        }
      })
    )
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 1_500))])
    child.stdout.resume()
    const { code, stderr } = await end
    const text = Buffer.concat(chunks).toString()
    expect(text.length, stderr).toBeGreaterThan(480_000)
    expect(code).toBe(1)
    const document = JSON.parse(text) as RunDocument
    expect(document.status).toBe("failed")
    expect(document.steps.map((step) => step.status)).toEqual([...Array(30).fill("succeeded"), "failed"])
    expect(document.steps[29]!.output.desc).toBe(desc)
  })

  it("runs show … | head -1: the closed pipe ends the command quietly, without a stack trace", async () => {
    const dataDir = join(dir, "data")
    // A run whose event is long (some 400 KB as shown): far more than a pipe holds.
    const event = { items: Array.from({ length: 20_000 }, (_, i) => `item ${i}`) }
    const { runId } = await Effect.runPromise(
      Effect.flatMap(RunStore.RunStore, (store) => store.accept("long-event", { id: "e1", output: event })).pipe(
        Effect.provide(RunStore.layer.pipe(Layer.provide(Database.layer({ _tag: "Embedded", dataDir })), Layer.provide(NodeContext.layer)))
      )
    )
    const child = spawn(process.execPath, [cli, "runs", "show", runId, "--data-dir", dataDir])
    const end = ended(child)
    // `head -1`: the first line, then the pipe closed.
    let first = ""
    await new Promise<void>((resolve) =>
      child.stdout.on("data", (chunk: Buffer) => {
        first += chunk.toString()
        if (first.includes("\n")) {
          child.stdout.destroy()
          resolve()
        }
      })
    )
    expect(first.split("\n")[0]).toBe(`run ${runId}: accepted`)
    const { code, stderr } = await end
    expect(stderr).toBe("")
    expect(code).toBe(0)
  })
})
