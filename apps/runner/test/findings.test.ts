/**
 * What bad input and bad luck found (issue 12), each against the built bin: refused before
 * anything runs, or kept from eating memory and state.
 */
import { describe, expect, it } from "@effect/vitest"
import * as TrelloSimulator from "@x/boardtool/testing"
import { mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs"
import { createServer as createHttpServer } from "node:http"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { cli, freePort, type Outcome, runner, served, spawn, stallMs } from "./bin.js"

const newCard = fileURLToPath(new URL("../examples/new-card.json", import.meta.url))
const dir = mkdtempSync(join(tmpdir(), "x-runner-findings-"))

const file = (name: string, content: unknown) => {
  const path = join(dir, name)
  writeFileSync(path, typeof content === "string" || Buffer.isBuffer(content) ? content : JSON.stringify(content))
  return path
}

/** A Trello simulator in this process, and the environment that points the runner at it. */
const trello = async () => {
  const sim = await TrelloSimulator.start({ key: "findings-key-0123456789", token: "findings-token-0123456789abcdef" })
  const env = { XRUNNER_BOARDTOOL_KEY: sim.key, XRUNNER_BOARDTOOL_TOKEN: sim.token, XRUNNER_BOARDTOOL_BASE_URL: sim.baseUrl }
  return { sim, env }
}
const createCard = (name: string) => ({
  label: name, name, type: "boardtool/v1/createCard", parameters: { idList: "5eed00000000000000000003", name: `card ${name}` }
})
const issuesOf = (outcome: Outcome) =>
  (JSON.parse(outcome.stdout) as { issues: Array<{ path: string; message: string }> }).issues.map((i) => `${i.path}: ${i.message}`)

/**
 * Streams a chunked body (no Content-Length) of up to `totalBytes` to the URL over a raw
 * socket, and stops sending once the answer's status line comes: the status, and how many
 * bytes were sent by then. (A raw socket: the server closes the connection after its answer,
 * which an HTTP client may report as a write error before the answer.)
 */
const streamChunked = (url: string, method: string, totalBytes: number) =>
  new Promise<{ status: number; sentBytes: number }>((resolve, reject) => {
    const { hostname, pathname, port } = new URL(url)
    const chunk = Buffer.concat([Buffer.from("10000\r\n"), Buffer.alloc(0x10000, 0x61), Buffer.from("\r\n")])
    let sent = 0
    let answer = ""
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      socket.write(`${method} ${pathname} HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`)
      pump()
    })
    const answered = () => /^HTTP\/1\.1 (\d{3})/.exec(answer)
    socket.on("data", (data: Buffer) => {
      answer += data.toString("latin1")
      const status = answered()
      if (status !== null) {
        resolve({ status: Number(status[1]), sentBytes: sent })
        socket.destroy()
      }
    })
    socket.on("error", (error) => setTimeout(() => (answered() === null ? reject(error) : undefined), 1000))
    const pump = () => {
      while (answered() === null && !socket.destroyed && sent < totalBytes) {
        sent += 0x10000
        if (!socket.write(chunk)) return void socket.once("drain", pump)
      }
      if (answered() === null && !socket.destroyed) socket.write("0\r\n\r\n")
    }
  })

describe("checked before anything runs (exit 2, nothing sent)", () => {
  it("a step named __proto__ (or constructor, prototype) is refused; __proto__ in parameters is the user's unknown key", async () => {
    const { env, sim } = await trello()
    const cards = sim.cards.size
    const reserved = await runner(["run", file("proto.json", {
      label: "Proto",
      tasks: [createCard("__proto__"), createCard("constructor"), { ...createCard("after"), parameters: { idList: "${__proto__.idList}", name: "x" } }]
    }), "--output", "json"], env)
    expect(reserved.code).toBe(2)
    expect(issuesOf(reserved)).toEqual(expect.arrayContaining([
      "tasks[0].name: \"__proto__\" is reserved",
      "tasks[1].name: \"constructor\" is reserved"
    ]))
    const inParameters = await runner(["run", file("proto-param.json",
      "{\"label\": \"P\", \"tasks\": [{\"label\": \"c\", \"name\": \"c\", \"type\": \"boardtool/v1/createCard\", \"parameters\": " +
        "{\"idList\": \"5eed00000000000000000003\", \"name\": \"x\", \"__proto__\": {\"name\": \"y\"}}}]}"), "--output", "json"], env)
    expect(inParameters.code).toBe(2)
    expect(issuesOf(inParameters)).toContain("tasks[0].parameters.__proto__: is not a known parameter")
    expect(sim.cards.size).toBe(cards)
    await sim.close()
  })

  it("parameters nested 3,000 or 2,000 deep: an InvalidInput naming the path, exit 2", async () => {
    for (const depth of [3000, 2000]) {
      const nested = "{\"a\":".repeat(depth) + "1" + "}".repeat(depth)
      const outcome = await runner(["run", file(`deep-${depth}.json`,
        `{"label": "Deep", "tasks": [{"label": "c", "name": "c", "type": "boardtool/v1/getCard", "parameters": {"id": ${nested}}}]}`),
      "--sandbox", "--output", "json"])
      expect(outcome.code, `${depth}`).toBe(2)
      const [issue] = issuesOf(outcome)
      expect(issue).toMatch(/^tasks\[0\]\.parameters\.id(\.a)+: nested deeper than 64 levels$/)
    }
  })

  it("a custom action's literal path that leaves the base URL: refused before the first step creates a card", async () => {
    const { env, sim } = await trello()
    const cards = sim.cards.size
    for (const path of ["https://elsewhere.example/x", "../../x"]) {
      const outcome = await runner(["run", file("escape.json", {
        label: "Escape",
        tasks: [createCard("first"), { label: "out", name: "out", type: "boardtool/v1/customAction", parameters: { method: "GET", path } }]
      }), "--output", "json"], env)
      expect(outcome.code, path).toBe(2)
      expect(issuesOf(outcome)[0], path).toMatch(/^tasks\[1\]\.parameters\.path: must stay/)
    }
    expect(sim.cards.size).toBe(cards)
    await sim.close()
  })

  it("a workflow file and a connections file that start with a UTF-8 byte-order mark are read", async () => {
    const { sim } = await trello()
    const bom = "\uFEFF"
    const workflow = file("bom.json", bom + JSON.stringify({
      label: "BOM", tasks: [{ label: "c", name: "c", type: "boardtool/v1/getCard", parameters: { id: "5eed0000000000000000000a" } }]
    }))
    const connections = file("bom-connections.json", bom + JSON.stringify({ boardtool: { key: sim.key, token: sim.token, baseUrl: sim.baseUrl } }))
    const outcome = await runner(["run", workflow, "--connections", connections, "--output", "json"])
    expect(outcome.stderr).toBe("")
    expect(outcome.code).toBe(0)
    expect(JSON.parse(outcome.stdout).steps[0].output.id).toBe("5eed0000000000000000000a")
    await sim.close()
  })
})

describe("outputs", () => {
  it("a custom action whose provider echoes the request's headers prints no key or token", async () => {
    const key = "echo-key-that-must-not-appear-0123"
    const token = "echo-token-that-must-not-appear-4567"
    const echo = createHttpServer((req, res) => {
      res.setHeader("content-type", "application/json")
      res.end(JSON.stringify({ url: req.url, headers: req.headers }))
    })
    await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve))
    const { port } = echo.address() as { port: number }
    const outcome = await runner(["run", file("echo.json", {
      label: "Echo", tasks: [{ label: "e", name: "e", type: "boardtool/v1/customAction", parameters: { method: "GET", path: "/echo" } }]
    }), "--output", "json"], { XRUNNER_BOARDTOOL_KEY: key, XRUNNER_BOARDTOOL_TOKEN: token, XRUNNER_BOARDTOOL_BASE_URL: `http://127.0.0.1:${port}/1` })
    echo.close()
    expect(outcome.code).toBe(0)
    expect(JSON.parse(outcome.stdout).steps[0].output.body.url).toContain("/1/echo")
    expect(outcome.stdout + outcome.stderr).not.toContain(key)
    expect(outcome.stdout + outcome.stderr).not.toContain(token)
  })
})

describe("servers read no more than they accept", () => {
  it("serve: a chunked delivery far over 1 MiB is answered 413 before the rest is read", async () => {
    const port = await freePort()
    const publicUrl = `http://127.0.0.1:${port}/hooks/new-card`
    const child = spawn(process.execPath, [cli, "serve", newCard, "--sandbox", "--public-url", publicUrl, "--data-dir", join(dir, "cap")])
    let log = ""
    child.stderr.on("data", (c: Buffer) => (log += c.toString()))
    await waitFor(() => log.includes("● serving"), () => log)
    const { sentBytes, status } = await streamChunked(publicUrl, "POST", 512 * 1024 * 1024)
    expect(status).toBe(413)
    expect(sentBytes).toBeLessThan(32 * 1024 * 1024)
    // Still serving: the provider's check of the URL is answered (not held behind the rest of
    // the body, which the client stopped sending: a server still reading it would never answer).
    expect((await fetch(publicUrl, { method: "HEAD", signal: AbortSignal.timeout(stallMs) })).status).toBe(200)
    child.kill("SIGTERM")
    await new Promise((resolve) => child.on("exit", resolve))
  })

  it("connect: a chunked body sent to the callback is answered 413 before the rest is read", async () => {
    const port = await freePort()
    const connections = file("connect.json", { sitebuilder: { clientId: "id", clientSecret: "secret" } })
    const child = spawn(process.execPath, [cli, "connect", "sitebuilder", "--connections", connections, "--app-url", `http://127.0.0.1:${port}`])
    let log = ""
    child.stderr.on("data", (c: Buffer) => (log += c.toString()))
    await waitFor(() => log.includes("Waiting for"), () => log)
    const { sentBytes, status } = await streamChunked(`http://127.0.0.1:${port}/callback`, "GET", 512 * 1024 * 1024)
    expect(status).toBe(413)
    expect(sentBytes).toBeLessThan(32 * 1024 * 1024)
    child.kill("SIGTERM")
    await new Promise((resolve) => child.on("exit", resolve))
  })
})

describe("serve's data directory", () => {
  const serveOnce = async (dataDir: string, env: Record<string, string> = {}) => {
    const port = await freePort()
    const child = spawn(process.execPath, [cli, "serve", newCard, "--sandbox", "--public-url", `http://127.0.0.1:${port}/hooks/new-card`, "--data-dir", dataDir], env)
    let log = ""
    child.stderr.on("data", (c: Buffer) => (log += c.toString()))
    const code = await new Promise<number | null>((resolve) => {
      child.on("exit", resolve)
      void waitFor(() => log.includes("● serving"), () => log).then(() => child.kill("SIGTERM"), () => child.kill("SIGKILL"))
    })
    return { code, log }
  }

  it("created 0700, its database files 0600", async () => {
    const dataDir = join(dir, "fresh", "data")
    const { code, log } = await serveOnce(dataDir)
    // The modes first: they are what this test is about (an older runner also ended otherwise).
    expect(statSync(dataDir).mode & 0o777).toBe(0o700)
    const files = readdirSync(dataDir).filter((file) => /\.db(-wal|-shm)?$|^runner\.lock/.test(file))
    expect(files).toContain("runs.db")
    expect(files).toContain("runner.lock")
    for (const file of files) expect([file, statSync(join(dataDir, file)).mode & 0o777]).toEqual([file, 0o600])
    expect(log).toContain("■ trigger disabled")
    expect(code).toBe(0)
  })

  it("a damaged database: serve refuses to start (exit 2), naming the file and a way out", async () => {
    const damagedDatabase = join(dir, "damaged-database")
    mkdirSync(damagedDatabase)
    writeFileSync(join(damagedDatabase, "runs.db"), "\u0000\u0007garbage, not a database".repeat(200))
    const database = await serveOnce(damagedDatabase)
    expect(database.code).toBe(2)
    expect(database.log).toContain(`${join(damagedDatabase, "runs.db")} is not a database x-runner can read`)
    expect(database.log).toContain("move it aside")
    expect(database.log).not.toContain("● serving")
    // x-runner runs reports it the same way.
    const listed = await runner(["runs", "--data-dir", damagedDatabase])
    expect(listed.code).toBe(2)
    expect(listed.stderr).toContain(`${join(damagedDatabase, "runs.db")} is not a database x-runner can read`)

  })

  it("one runner uses a data directory: a second serve on it is refused (exit 2); once the first stopped, it starts", async () => {
    const dataDir = join(dir, "shared-data")
    const port = await freePort()
    const first = served(["serve", newCard, "--sandbox", "--public-url", `http://127.0.0.1:${port}/hooks/new-card`, "--data-dir", dataDir])
    await first.waitFor("● serving")
    const second = await serveOnce(dataDir)
    expect(second.code).toBe(2)
    expect(second.log).toContain(`another x-runner (process ${first.child.pid}) serves from ${dataDir}: one runner uses a data directory`)
    expect(second.log).not.toContain("● serving")
    // Whatever its clock says: one 8 s ahead took the first runner for gone (its last heartbeat
    // looked older than three of them).
    const ahead = fileURLToPath(new URL("./fixtures/clockBehind.cjs", import.meta.url))
    const third = await serveOnce(dataDir, { NODE_OPTIONS: `--require ${ahead}`, XRUNNER_TEST_CLOCK_SHIFT_MS: "8000" })
    expect(third.code).toBe(2)
    expect(third.log).toContain(`another x-runner (process ${first.child.pid}) serves from ${dataDir}: one runner uses a data directory`)
    first.child.kill("SIGTERM")
    expect(await first.exited).toBe(0)
    const fourth = await serveOnce(dataDir)
    expect(fourth.log).toContain("● serving")
    expect(fourth.code).toBe(0)
  })

  it("a runner killed (kill -9) leaves its data directory free at once: the next serve on it starts", async () => {
    const dataDir = join(dir, "killed-data")
    const port = await freePort()
    const first = served(["serve", newCard, "--sandbox", "--public-url", `http://127.0.0.1:${port}/hooks/new-card`, "--data-dir", dataDir])
    await first.waitFor("● serving")
    first.child.kill("SIGKILL")
    await first.exited
    const next = await serveOnce(dataDir)
    expect(next.log).toContain("● serving")
    expect(next.log).not.toContain("another x-runner")
    expect(next.code).toBe(0)
  })
})

// As bin.ts's: a stall bound, not a speed expectation.
const waitFor = (done: () => boolean, log: () => string, timeoutMs = stallMs) =>
  new Promise<void>((resolve, reject) => {
    const started = Date.now()
    const check = () => {
      if (done()) return resolve()
      if (Date.now() - started > timeoutMs) return reject(new Error(`timed out; log:\n${log()}`))
      setTimeout(check, 25)
    }
    check()
  })
