import { afterAll, describe, expect, it } from "@effect/vitest"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort, runner, served } from "./bin.js"

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
    const { code, stdout, stderr } = await runner(["run", file, "--sandbox", "--output", "json", "--files-dir", dir])
    expect(stderr).toBe("")
    expect(code).toBe(0)
    const result = JSON.parse(stdout)
    expect(result.steps[0]).toMatchObject({ status: "succeeded", output: { name: "notes.txt", bytes: 18, mimeType: "text/plain", isUpload: true } })
    expect(result.steps[1]).toMatchObject({ status: "succeeded", output: { path: copy, size: 18, fileName: "notes.txt" } })
    expect(readFileSync(copy, "utf8")).toBe("Launch on Monday.\n")
    expect(statSync(copy).mode & 0o777).toBe(0o600)
  })

  it("a file over the limit fails the step with an InvalidInput naming the field, its size and the limit", async () => {
    const big = join(dir, "big.bin")
    writeFileSync(big, Buffer.alloc(10 * 1024 * 1024 + 1))
    const file = join(dir, "big.json")
    writeFileSync(file, JSON.stringify({
      label: "Too large",
      tasks: [step("attach", "boardtool/v1/addAttachment", { idCard: "5eed0000000000000000000a", file: { path: big } })]
    }))
    const { code, stdout } = await runner(["run", file, "--sandbox", "--output", "json", "--files-dir", dir])
    expect(code).toBe(1)
    expect(JSON.parse(stdout).steps[0]).toEqual({
      name: "attach",
      type: "boardtool/v1/addAttachment",
      status: "failed",
      error: { tag: "InvalidInput", message: "file is 10 MiB (10485761 bytes), over its limit of 10 MiB (10485760 bytes)" }
    })
  })

  describe("the file policy", () => {
    // A directory beside the files directory, a link out of it, and a server on 127.0.0.1 that is no simulator.
    const files = mkdtempSync(join(tmpdir(), "x-runner-policy-"))
    const outside = mkdtempSync(join(tmpdir(), "x-runner-outside-"))
    writeFileSync(join(outside, "secret.txt"), "not for the card\n")
    symlinkSync(join(outside, "secret.txt"), join(files, "link.txt"))
    mkdirSync(join(files, "downloads"))
    let reached = 0
    const internal = createServer((_, res) => {
      reached++
      res.writeHead(200, { "content-type": "text/plain" }).end("internal\n")
    })
    const listening = new Promise<number>((resolve) => internal.listen(0, "127.0.0.1", () => resolve((internal.address() as AddressInfo).port)))
    afterAll(() => new Promise<void>((resolve) => internal.close(() => resolve())))

    const card = "5eed0000000000000000000a"
    const attach = (file: Record<string, unknown>) => [step("attach", "boardtool/v1/addAttachment", { idCard: card, file })]
    const runTasks = async (name: string, tasks: ReadonlyArray<unknown>, ...flags: ReadonlyArray<string>) => {
      const file = join(dir, `${name}.json`)
      writeFileSync(file, JSON.stringify({ label: name, tasks }))
      const outcome = await runner(["run", file, "--sandbox", "--output", "json", "--files-dir", files, ...flags])
      return { code: outcome.code, steps: (JSON.parse(outcome.stdout) as { steps: Array<{ name: string; status: string; error?: { tag: string; message: string } }> }).steps }
    }

    it("run --sandbox refuses a path outside --files-dir, a symlink out of it, a url to 127.0.0.1 that is no simulator's and a ../ download name, before any request", async () => {
      const port = await listening
      const [etc, link, url, allowed, escape] = await Promise.all([
        runTasks("etc", attach({ path: "/etc/passwd" })),
        runTasks("link", attach({ path: "link.txt" })),
        runTasks("url", attach({ url: `http://127.0.0.1:${port}/report.txt` })),
        runTasks("allowed", attach({ url: `http://2130706433:${port}/report.txt` }), "--allow-private-networks"),
        runTasks("escape", [
          step("attach", "boardtool/v1/addAttachment", { idCard: card, file: { name: "victim.txt", base64: Buffer.from("overwritten\n").toString("base64") } }),
          step("fetch", "boardtool/v1/downloadAttachment", { idCard: card, idAttachment: "${attach.id}", path: "downloads/../../victim.txt" })
        ])
      ])
      expect(etc.code).toBe(1)
      expect(etc.steps[0]!.error).toEqual({ tag: "InvalidInput", message: `file: /etc/passwd is outside the files directory ${files}` })
      expect(link.steps[0]!.error).toEqual({ tag: "InvalidInput", message: `file: link.txt is outside the files directory ${files} once its symlinks are resolved` })
      expect(url.steps[0]!.error).toEqual({
        tag: "InvalidInput",
        message: `file: http://127.0.0.1:${port}/report.txt is refused: 127.0.0.1 is a loopback address, and private networks are not allowed`
      })
      // With --allow-private-networks, the same server is read (once: the refusals reached nothing).
      expect(allowed).toMatchObject({ code: 0, steps: [{ status: "succeeded" }] })
      expect(reached).toBe(1)
      expect(escape.steps.map((s) => s.status)).toEqual(["succeeded", "failed"])
      expect(escape.steps[1]!.error!.message).toMatch(/^path: downloads\/\.\.\/\.\.\/victim\.txt holds a "\.\." segment/)
      expect(existsSync(join(files, "..", "victim.txt"))).toBe(false)
      expect(readdirSync(files).sort()).toEqual(["downloads", "link.txt"])
    })

    it("a trigger's run on the engine's thread keeps to the same policy (run --serve): a path taken from the event is refused", async () => {
      // The card's name, from the event, is used as a path: the red team's /etc/passwd.
      const served = join(dir, "moved-attach.json")
      writeFileSync(served, JSON.stringify({
        label: "Attach what the card names",
        triggers: [{ label: "moved", name: "cardMoved", type: "boardtool/v1/cardMoved", parameters: { idBoard: "5eed00000000000000000002", toList: "5eed00000000000000000004" } }],
        tasks: [step("attach", "boardtool/v1/addAttachment", { idCard: "${trigger.card.id}", file: { path: "${trigger.card.name}" } })]
      }))
      const main = join(dir, "move-named.json")
      writeFileSync(main, JSON.stringify({
        label: "Move a card named /etc/passwd",
        tasks: [
          step("card", "boardtool/v1/createCard", { idList: "5eed00000000000000000003", name: "/etc/passwd" }),
          step("move", "boardtool/v1/moveCard", { id: "${card.id}", toBoard: "5eed00000000000000000002", toList: "5eed00000000000000000004" })
        ]
      }))
      const { stdout } = await runner(["run", main, "--sandbox", "--serve", served, "--output", "json", "--files-dir", files])
      const trigger = (JSON.parse(stdout) as { trigger: { status: string; steps: Array<{ error?: { tag: string; message: string } }> } }).trigger
      expect(trigger.status).toBe("failed")
      expect(trigger.steps[0]!.error).toEqual({ tag: "InvalidInput", message: `file: /etc/passwd is outside the files directory ${files}` })
    })

    it("serve has no files directory until --files-dir gives one: a path taken from a delivery is refused", async () => {
      const workflow = join(dir, "attach-named.json")
      writeFileSync(workflow, JSON.stringify({
        label: "Attach what a moved card names",
        triggers: [{ label: "moved", name: "moved", type: "boardtool/v1/cardMoved", parameters: { idBoard: "5eed00000000000000000002", toList: "5eed00000000000000000004" } }],
        tasks: [step("attach", "boardtool/v1/addAttachment", { idCard: "${trigger.card.id}", file: { path: "${trigger.card.name}" } })]
      }))
      const port = await freePort()
      const server = served(["serve", workflow, "--sandbox", "--public-url", `http://127.0.0.1:${port}/hooks/moved`, "--port", String(port), "--data-dir", join(dir, "serve-data")])
      await server.waitFor("● serving boardtool/v1/cardMoved")
      const trello = /Trello simulator at (\S+) /.exec(server.log())![1]!
      const call = (method: string, path: string) =>
        fetch(`${trello}${path}`, { method, headers: { authorization: "OAuth oauth_consumer_key=\"sandbox-trello-key\", oauth_token=\"sandbox-trello-token\"" } })
      const created = await (await call("POST", `/cards?idList=5eed00000000000000000003&name=${encodeURIComponent("/etc/passwd")}`)).json() as { id: string }
      expect((await call("PUT", `/cards/${created.id}?idList=5eed00000000000000000004`)).status).toBe(200)
      await server.waitFor(/■ event [0-9a-f]{24} failed/)
      expect(server.log()).toContain("✘ attach failed: InvalidInput: file: /etc/passwd is refused: no local file may be read here (no files directory is set)")
      const attachments = await (await call("GET", `/cards/${created.id}/attachments`)).json() as Array<unknown>
      expect(attachments).toEqual([])
      server.child.kill("SIGTERM")
      await server.exited
    })
  })
})
